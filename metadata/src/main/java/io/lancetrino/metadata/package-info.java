/**
 * The Lance table layer: versions, manifests, refs, base paths, deletion files and schema, with no Trino dependency.
 */
package io.lancetrino.metadata;
