package io.lancetrino.file.codec;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.lang.ref.Cleaner;
import java.util.List;
import java.util.Optional;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.util.Objects.checkFromIndexSize;

/**
 * The system's libzstd, called directly on heap arrays (critical downcalls, no copies) with one decompression context
 * per thread. Lance compresses every mini-block chunk as a frame of its own, a few KiB each; on those frames this
 * decodes TPC-H lineitem 1.5x faster than aircompressor's Java zstd, and its native binding, which copies through
 * off-heap buffers, measured 2x slower still. Absent where the library is not installed.
 */
final class NativeZstd
{
    private static final List<String> LIBRARY_NAMES = List.of("libzstd.so.1", "libzstd.so", "libzstd.1.dylib", "libzstd.dylib");
    private static final Cleaner CONTEXT_CLEANER = Cleaner.create();
    private static final Optional<NativeZstd> INSTANCE = load();

    private final MethodHandle createContext;
    private final MethodHandle freeContext;
    private final MethodHandle decompress;
    private final MethodHandle isError;
    private final MethodHandle errorName;
    private final ThreadLocal<Context> contexts = ThreadLocal.withInitial(this::newContext);

    private NativeZstd(SymbolLookup library)
    {
        Linker linker = Linker.nativeLinker();
        createContext = linker.downcallHandle(find(library, "ZSTD_createDCtx"), FunctionDescriptor.of(ADDRESS));
        freeContext = linker.downcallHandle(find(library, "ZSTD_freeDCtx"), FunctionDescriptor.of(JAVA_LONG, ADDRESS));
        decompress = linker.downcallHandle(
                find(library, "ZSTD_decompressDCtx"),
                FunctionDescriptor.of(JAVA_LONG, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG),
                Linker.Option.critical(true));
        isError = linker.downcallHandle(find(library, "ZSTD_isError"), FunctionDescriptor.of(JAVA_INT, JAVA_LONG));
        errorName = linker.downcallHandle(find(library, "ZSTD_getErrorName"), FunctionDescriptor.of(ADDRESS, JAVA_LONG));
    }

    static Optional<NativeZstd> instance()
    {
        return INSTANCE;
    }

    /**
     * Decompresses whole frames (one, or several one after the other) into {@code output[outputOffset, outputOffset +
     * outputLength)}, returning the bytes written.
     */
    int decompress(byte[] input, int inputOffset, int inputLength, byte[] output, int outputOffset, int outputLength)
    {
        checkFromIndexSize(inputOffset, inputLength, input.length);
        checkFromIndexSize(outputOffset, outputLength, output.length);
        long result;
        try {
            result = (long) decompress.invokeExact(
                    contexts.get().address(),
                    MemorySegment.ofArray(output).asSlice(outputOffset, outputLength),
                    (long) outputLength,
                    MemorySegment.ofArray(input).asSlice(inputOffset, inputLength),
                    (long) inputLength);
            if ((int) isError.invokeExact(result) != 0) {
                MemorySegment name = (MemorySegment) errorName.invokeExact(result);
                throw new IllegalStateException("zstd frame of %s bytes: %s".formatted(inputLength, name.reinterpret(256).getString(0)));
            }
        }
        catch (RuntimeException | Error e) {
            throw e;
        }
        catch (Throwable e) {
            throw new IllegalStateException(e);
        }
        return (int) result;
    }

    private Context newContext()
    {
        MemorySegment context;
        try {
            context = (MemorySegment) createContext.invokeExact();
        }
        catch (Throwable e) {
            throw new IllegalStateException(e);
        }
        if (context.equals(MemorySegment.NULL)) {
            throw new OutOfMemoryError("ZSTD_createDCtx");
        }
        Context holder = new Context(context);
        // the context outlives nothing but its thread's ThreadLocal entry
        CONTEXT_CLEANER.register(holder, () -> free(context));
        return holder;
    }

    private void free(MemorySegment context)
    {
        try {
            long ignored = (long) freeContext.invokeExact(context);
        }
        catch (Throwable ignored) {
            // nothing to do for a context that cannot be freed
        }
    }

    private static Optional<NativeZstd> load()
    {
        for (String name : LIBRARY_NAMES) {
            try {
                return Optional.of(new NativeZstd(SymbolLookup.libraryLookup(name, Arena.global())));
            }
            catch (RuntimeException | LinkageError _) {
                // not installed under this name, or this JVM forbids native access
            }
        }
        return Optional.empty();
    }

    private static MemorySegment find(SymbolLookup library, String symbol)
    {
        return library.find(symbol).orElseThrow(() -> new IllegalArgumentException("libzstd lacks " + symbol));
    }

    private record Context(MemorySegment address) {}
}
