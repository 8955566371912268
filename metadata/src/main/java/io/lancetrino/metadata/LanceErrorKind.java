package io.lancetrino.metadata;

/**
 * Why a table-layer operation failed; the plugin maps each kind to its own Trino error code.
 */
public enum LanceErrorKind
{
    TABLE_NOT_FOUND,
    VERSION_NOT_FOUND,
    REF_NOT_FOUND,
    AMBIGUOUS_REF,
    INVALID_REF,
    CORRUPT_MANIFEST,
    MISSING_FILE,
    BAD_DELETION_FILE,
    UNSUPPORTED_FEATURE,
    UNSUPPORTED_TYPE,
    FILESYSTEM_ERROR,
    /** another writer committed a change that overlaps this one; re-running the statement may succeed */
    COMMIT_CONFLICT,
    /** the change no longer applies to the table as it is now */
    INCOMPATIBLE_CHANGE,
}
