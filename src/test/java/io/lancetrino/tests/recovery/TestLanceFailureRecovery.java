package io.lancetrino.tests.recovery;

import io.trino.operator.RetryPolicy;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.parallel.Execution;

import static org.junit.jupiter.api.parallel.ExecutionMode.CONCURRENT;

/**
 * The failure-recovery suite under both retry policies, in one test class whose cases all run concurrently (they
 * mostly wait out injected timeouts); the Maven execution {@code failure-recovery} runs it after every other class.
 */
@Execution(CONCURRENT)
final class TestLanceFailureRecovery
{
    /**
     * {@code retry-policy=TASK}: a failed task runs again, its output deduplicated through the exchange.
     */
    @Nested
    final class TaskRetries
            extends BaseLanceFailureRecoveryTest
    {
        TaskRetries()
        {
            super(RetryPolicy.TASK);
        }
    }

    /**
     * {@code retry-policy=QUERY}: a failed query runs again from the start, so every injected failure reruns the whole
     * statement.
     */
    @Nested
    final class QueryRetries
            extends BaseLanceFailureRecoveryTest
    {
        QueryRetries()
        {
            super(RetryPolicy.QUERY);
        }
    }
}
