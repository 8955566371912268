package io.lancetrino.sdk.arrow;

import io.trino.spi.block.Block;
import io.trino.spi.type.Type;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.memory.unsafe.UnsafeAllocationManager;

import java.util.ArrayList;
import java.util.List;

final class ArrowTestSupport
{
    private ArrowTestSupport() {}

    static BufferAllocator newAllocator()
    {
        return new RootAllocator(RootAllocator.configBuilder().allocationManagerFactory(UnsafeAllocationManager.FACTORY).build());
    }

    static List<Object> values(Type type, Block block)
    {
        List<Object> values = new ArrayList<>();
        for (int i = 0; i < block.getPositionCount(); i++) {
            values.add(type.getObjectValue(block, i));
        }
        return values;
    }
}
