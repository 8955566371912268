package io.lancetrino.tests.recovery;

import io.trino.operator.RetryPolicy;

/**
 * The failure-recovery suite with {@code retry-policy=QUERY}: a failed query runs again from the start.
 */
final class TestLanceQueryFailureRecovery
        extends BaseLanceFailureRecoveryTest
{
    TestLanceQueryFailureRecovery()
    {
        super(RetryPolicy.QUERY);
    }
}
