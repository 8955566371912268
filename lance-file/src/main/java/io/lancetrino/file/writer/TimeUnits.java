package io.lancetrino.file.writer;

/**
 * Arithmetic of time values moved to a finer unit, shared by both writers' conversions of Trino's long timestamps.
 */
public final class TimeUnits
{
    private TimeUnits() {}

    /**
     * {@code value * factor + fraction} for {@code 0 <= fraction < factor}, failing only when the result itself does not
     * fit: near the lower end {@code value * factor} alone may not.
     *
     * @throws ArithmeticException when the result overflows 64 bits
     */
    public static long scaleAndAdd(long value, long factor, long fraction)
    {
        if (value < 0 && fraction > 0) {
            return Math.multiplyExact(value + 1, factor) + (fraction - factor);
        }
        return Math.addExact(Math.multiplyExact(value, factor), fraction);
    }
}
