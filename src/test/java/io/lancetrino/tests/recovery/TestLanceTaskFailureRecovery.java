package io.lancetrino.tests.recovery;

import io.trino.operator.RetryPolicy;

/**
 * The failure-recovery suite with {@code retry-policy=TASK}: a failed task runs again, its output deduplicated
 * through the exchange.
 */
final class TestLanceTaskFailureRecovery
        extends BaseLanceFailureRecoveryTest
{
    TestLanceTaskFailureRecovery()
    {
        super(RetryPolicy.TASK);
    }
}
