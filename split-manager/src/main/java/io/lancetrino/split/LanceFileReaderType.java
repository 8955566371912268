package io.lancetrino.split;

/**
 * Which reader decodes data files: the pure-Java reader, falling back to the SDK per file and column for what it does
 * not decode, or only the SDK (for comparison, and as an escape hatch).
 */
public enum LanceFileReaderType
{
    JAVA,
    SDK,
}
