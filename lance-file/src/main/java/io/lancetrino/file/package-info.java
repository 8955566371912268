/**
 * A pure-Java reader of Lance data files: the file footer and column metadata, the 2.1/2.2 page layouts and their
 * encodings, decoded straight into Trino blocks. No dependency on the table layer; the SDK is only the test oracle.
 */
package io.lancetrino.file;
