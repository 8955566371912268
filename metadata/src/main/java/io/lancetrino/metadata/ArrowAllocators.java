package io.lancetrino.metadata;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.memory.unsafe.UnsafeAllocationManager;

/**
 * Arrow's Netty allocation manager fails on JDK 25 without extra flags; the Unsafe one works everywhere.
 */
public final class ArrowAllocators
{
    private ArrowAllocators() {}

    public static BufferAllocator newRootAllocator(long limit)
    {
        return new RootAllocator(RootAllocator.configBuilder()
                .allocationManagerFactory(UnsafeAllocationManager.FACTORY)
                .maxAllocation(limit)
                .build());
    }
}
