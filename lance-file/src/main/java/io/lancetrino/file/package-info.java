/**
 * A pure-Java reader of Lance data files: the file footer and column metadata, the 2.1/2.2 page layouts and their
 * encodings, decoded straight into Trino blocks. No dependency on the table layer; the SDK is only the test oracle.
 *
 * <p>Decoded: files of version 2.1 and 2.2; MiniBlock pages (u16 and 2.2's u32 chunk words) with Flat (incl. 1-bit
 * booleans and 128-bit decimals), inline and out-of-line FastLanes bit-packing, Variable, FSST, RLE, byte stream split
 * and general (lz4/zstd) compression, dictionaries (as {@code DictionaryBlock}), def levels of leaves and of struct
 * leaves; FullZip pages of variable-width values (plain or FSST); all-null and 2.2 constant pages. Anything else
 * (repetition levels, i.e. lists; FullZip of fixed-width values; blob pages; packed structs; fixed-size lists) raises
 * {@link io.lancetrino.file.UnsupportedLanceEncodingException} naming column and page, so callers can fall back.
 */
package io.lancetrino.file;
