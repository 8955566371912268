package io.lancetrino.split;

import io.lancetrino.metadata.LanceTableException;
import io.trino.spi.ErrorCode;
import io.trino.spi.ErrorCodeSupplier;
import io.trino.spi.ErrorType;
import io.trino.spi.TrinoException;

import static io.trino.spi.ErrorType.EXTERNAL;
import static io.trino.spi.ErrorType.USER_ERROR;

public enum LanceErrorCode
        implements ErrorCodeSupplier
{
    LANCE_VERSION_NOT_FOUND(0, USER_ERROR),
    LANCE_REF_NOT_FOUND(1, USER_ERROR),
    LANCE_AMBIGUOUS_REF(2, USER_ERROR),
    LANCE_INVALID_REF(3, USER_ERROR),
    LANCE_CORRUPT_MANIFEST(4, EXTERNAL),
    LANCE_MISSING_FILE(5, EXTERNAL),
    LANCE_BAD_DELETION_FILE(6, EXTERNAL),
    LANCE_UNSUPPORTED_FEATURE(7, EXTERNAL),
    LANCE_UNSUPPORTED_TYPE(8, EXTERNAL),
    LANCE_FILESYSTEM_ERROR(9, EXTERNAL),
    LANCE_BAD_DATA(10, EXTERNAL),
    LANCE_TABLE_NOT_FOUND(11, USER_ERROR),
    LANCE_COMMIT_CONFLICT(12, EXTERNAL),
    LANCE_INCOMPATIBLE_CHANGE(13, EXTERNAL),
    LANCE_ALREADY_EXISTS(14, USER_ERROR),
    LANCE_REF_IN_USE(15, USER_ERROR),
    LANCE_NOT_AN_ANCESTOR(16, USER_ERROR),
    LANCE_MERGE_CONFLICT(17, USER_ERROR),
    LANCE_EXCLUSIVE_CREATE_UNSUPPORTED(18, EXTERNAL),
    LANCE_INVALID_JSON(19, USER_ERROR),
    LANCE_INDEX_NOT_FOUND(20, USER_ERROR),
    /** the Lance SDK failed to build or optimize an index; the table is unchanged */
    LANCE_INDEX_BUILD_FAILED(21, EXTERNAL),
    /** an index file a query would use is missing or damaged; use_scalar_index = false reads around it */
    LANCE_BAD_INDEX(22, EXTERNAL),
    /** the Lance SDK failed a vector or text search it was handed */
    LANCE_SEARCH_FAILED(23, EXTERNAL),
    /** a merge cannot follow the merge base's rows: versions it needs were cleaned up; nothing was changed */
    LANCE_MERGE_HISTORY_MISSING(24, USER_ERROR),
    /** another writer inserted, at the same time, a key of the table's primary key the statement inserts: nothing was committed; re-running it finds the key */
    LANCE_DUPLICATE_KEY(25, EXTERNAL),
    /**/;

    private final ErrorCode errorCode;

    LanceErrorCode(int code, ErrorType type)
    {
        errorCode = new ErrorCode(code + 0x0517_0000, name(), type);
    }

    @Override
    public ErrorCode toErrorCode()
    {
        return errorCode;
    }

    public static TrinoException toTrinoException(LanceTableException e)
    {
        LanceErrorCode code = switch (e.kind()) {
            case TABLE_NOT_FOUND -> LANCE_TABLE_NOT_FOUND;
            case VERSION_NOT_FOUND -> LANCE_VERSION_NOT_FOUND;
            case REF_NOT_FOUND -> LANCE_REF_NOT_FOUND;
            case AMBIGUOUS_REF -> LANCE_AMBIGUOUS_REF;
            case INVALID_REF -> LANCE_INVALID_REF;
            case CORRUPT_MANIFEST -> LANCE_CORRUPT_MANIFEST;
            case MISSING_FILE -> LANCE_MISSING_FILE;
            case BAD_DELETION_FILE -> LANCE_BAD_DELETION_FILE;
            case UNSUPPORTED_FEATURE -> LANCE_UNSUPPORTED_FEATURE;
            case UNSUPPORTED_TYPE -> LANCE_UNSUPPORTED_TYPE;
            case FILESYSTEM_ERROR -> LANCE_FILESYSTEM_ERROR;
            case COMMIT_CONFLICT -> LANCE_COMMIT_CONFLICT;
            case INCOMPATIBLE_CHANGE -> LANCE_INCOMPATIBLE_CHANGE;
            case ALREADY_EXISTS -> LANCE_ALREADY_EXISTS;
            case REF_IN_USE -> LANCE_REF_IN_USE;
            case NOT_AN_ANCESTOR -> LANCE_NOT_AN_ANCESTOR;
            case MERGE_CONFLICT -> LANCE_MERGE_CONFLICT;
            case MERGE_HISTORY_MISSING -> LANCE_MERGE_HISTORY_MISSING;
            case DUPLICATE_KEY -> LANCE_DUPLICATE_KEY;
            case EXCLUSIVE_CREATE_UNSUPPORTED -> LANCE_EXCLUSIVE_CREATE_UNSUPPORTED;
        };
        return new TrinoException(code, e.getMessage(), e);
    }
}
