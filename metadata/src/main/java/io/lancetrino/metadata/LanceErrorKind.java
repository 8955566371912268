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
    /** a branch, tag or table of that name exists already */
    ALREADY_EXISTS,
    /** a branch or version is still needed by another branch, a tag or a clone */
    REF_IN_USE,
    /** a fast-forward whose target has moved away from the source's history */
    NOT_AN_ANCESTOR,
    /** both sides of a branch merge changed the same thing */
    MERGE_CONFLICT,
    /** a merge needs versions of a side's history that are gone, so it cannot tell where the merge base's rows went */
    MERGE_HISTORY_MISSING,
    /** a concurrent change inserted a key of the table's primary key that this change inserts too */
    DUPLICATE_KEY,
    /** the file system cannot create a file only if it is absent, so no commit can be made safely */
    EXCLUSIVE_CREATE_UNSUPPORTED,
}
