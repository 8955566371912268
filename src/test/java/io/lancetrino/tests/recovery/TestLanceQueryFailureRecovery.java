package io.lancetrino.tests.recovery;

import io.trino.operator.RetryPolicy;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The failure-recovery suite with {@code retry-policy=QUERY}: a failed query runs again from the start. It takes about
 * 20 minutes on two cores (every injected failure reruns the whole query), more than the default run can hold beside
 * the TASK suite, so it runs on request: {@code bin/test -pl src/test -Dtest=TestLanceQueryFailureRecovery
 * -Dlance.tests.query-retries=true -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@EnabledIfSystemProperty(named = "lance.tests.query-retries", matches = "true")
final class TestLanceQueryFailureRecovery
        extends BaseLanceFailureRecoveryTest
{
    TestLanceQueryFailureRecovery()
    {
        super(RetryPolicy.QUERY);
    }
}
