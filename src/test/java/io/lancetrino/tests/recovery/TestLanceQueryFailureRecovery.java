package io.lancetrino.tests.recovery;

import io.trino.operator.RetryPolicy;

/**
 * The failure-recovery suite with {@code retry-policy=QUERY}: a failed query runs again from the start, so every
 * injected failure reruns the whole statement.
 */
final class TestLanceQueryFailureRecovery
        extends BaseLanceFailureRecoveryTest
{
    TestLanceQueryFailureRecovery()
    {
        super(RetryPolicy.QUERY);
    }
}
