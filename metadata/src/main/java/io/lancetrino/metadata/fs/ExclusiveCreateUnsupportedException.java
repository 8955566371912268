package io.lancetrino.metadata.fs;

import java.io.IOException;

/**
 * The store cannot create a file only if it is absent (or accepts a second creation of the same file), so a commit
 * could silently replace another writer's version.
 */
public class ExclusiveCreateUnsupportedException
        extends IOException
{
    public ExclusiveCreateUnsupportedException(String message, Throwable cause)
    {
        super(message, cause);
    }
}
