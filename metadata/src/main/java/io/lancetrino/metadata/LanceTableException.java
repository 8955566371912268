package io.lancetrino.metadata;

import static java.util.Objects.requireNonNull;

public class LanceTableException
        extends RuntimeException
{
    private final LanceErrorKind kind;

    public LanceTableException(LanceErrorKind kind, String message)
    {
        this(kind, message, null);
    }

    public LanceTableException(LanceErrorKind kind, String message, Throwable cause)
    {
        super(message, cause);
        this.kind = requireNonNull(kind, "kind is null");
    }

    public LanceErrorKind kind()
    {
        return kind;
    }
}
