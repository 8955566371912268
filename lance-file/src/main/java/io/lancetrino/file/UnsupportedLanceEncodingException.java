package io.lancetrino.file;

/**
 * A page uses a layout or encoding this reader does not decode. Unchecked so decoders can throw it from deep inside;
 * callers catch it to fall back to another reader for the file or column.
 */
public class UnsupportedLanceEncodingException
        extends RuntimeException
{
    public UnsupportedLanceEncodingException(String message)
    {
        super(message);
    }
}
