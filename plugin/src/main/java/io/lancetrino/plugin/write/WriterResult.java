package io.lancetrino.plugin.write;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import io.airlift.slice.Slice;
import io.airlift.slice.Slices;
import io.lancetrino.metadata.keys.InsertedKeys;
import org.roaringbitmap.RoaringBitmap;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;

/**
 * What one page sink or merge sink sends to the coordinator: the fragments it appended and, per existing fragment, the
 * local row offsets it deleted (portable Roaring bytes); the counts of rows that only a MERGE statement produces (see
 * {@link RowChangeStatement}); and, for a table with a primary key, the keys it inserted.
 */
record WriterResult(List<byte[]> newFragments, Map<Long, byte[]> deletedRows, long insertRows, long mergeDeleteRows, InsertedKeys insertedKeys)
{
    private static final ObjectMapper MAPPER = new ObjectMapper();

    static WriterResult inserted(List<byte[]> newFragments, InsertedKeys insertedKeys)
    {
        return new WriterResult(newFragments, Map.of(), 0, 0, insertedKeys);
    }

    WriterResult
    {
        newFragments = ImmutableList.copyOf(newFragments);
        deletedRows = ImmutableMap.copyOf(deletedRows);
    }

    Slice toSlice()
    {
        try {
            return Slices.wrappedBuffer(MAPPER.writeValueAsBytes(this));
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static WriterResult fromSlice(Slice slice)
    {
        try {
            return MAPPER.readValue(slice.getBytes(), WriterResult.class);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static byte[] serialize(RoaringBitmap rows)
    {
        ByteBuffer buffer = ByteBuffer.allocate(rows.serializedSizeInBytes());
        rows.serialize(buffer);
        return buffer.array();
    }

    static RoaringBitmap deserialize(byte[] bytes)
    {
        RoaringBitmap rows = new RoaringBitmap();
        try {
            rows.deserialize(ByteBuffer.wrap(bytes));
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return rows;
    }
}
