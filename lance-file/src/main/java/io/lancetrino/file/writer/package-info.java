/**
 * Writes Lance data files (format 2.1 and 2.2) from Trino blocks, in pure Java: the container (data buffers, global
 * buffers, column metadata, offset tables, footer) and mini-block pages of flat leaf columns.
 */
package io.lancetrino.file.writer;
