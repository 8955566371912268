package io.lancetrino.tests.recovery;

import io.trino.operator.RetryPolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The failure-recovery suite with {@code retry-policy=QUERY}: a failed query runs again from the start. Each case
 * reruns its whole statement for every injected failure and waits out the injected timeouts (70-95 s a write case on
 * two cores, about 25 minutes for all), more than the default run can hold beside the TASK suite. The default run
 * takes one write of each kind the page sink and the commit handle (INSERT: new fragments; DELETE: deletion files;
 * MERGE: both at once), the branch, clone and maintenance writes, and the failures that must not be retried; the
 * rest (CTAS, UPDATE, the subquery forms, every read) runs on request: {@code bin/test -pl src/test
 * -Dtest=TestLanceQueryFailureRecovery -Dlance.tests.query-retries=true -Dsurefire.failIfNoSpecifiedTests=false}.
 */
final class TestLanceQueryFailureRecovery
        extends BaseLanceFailureRecoveryTest
{
    private static final String ALL_CASES = "lance.tests.query-retries";

    TestLanceQueryFailureRecovery()
    {
        super(RetryPolicy.QUERY);
    }

    @Test
    @Override
    @EnabledIfSystemProperty(named = ALL_CASES, matches = "true")
    protected void testCreateTable()
    {
        super.testCreateTable();
    }

    @Test
    @Override
    @EnabledIfSystemProperty(named = ALL_CASES, matches = "true")
    protected void testUpdate()
    {
        super.testUpdate();
    }

    @Test
    @Override
    @EnabledIfSystemProperty(named = ALL_CASES, matches = "true")
    protected void testDeleteWithSubquery()
    {
        super.testDeleteWithSubquery();
    }

    @Test
    @Override
    @EnabledIfSystemProperty(named = ALL_CASES, matches = "true")
    protected void testUpdateWithSubquery()
    {
        super.testUpdateWithSubquery();
    }

    @Test
    @Override
    @EnabledIfSystemProperty(named = ALL_CASES, matches = "true")
    protected void testSimpleSelect()
    {
        super.testSimpleSelect();
    }

    @Test
    @Override
    @EnabledIfSystemProperty(named = ALL_CASES, matches = "true")
    protected void testAggregation()
    {
        super.testAggregation();
    }

    @Test
    @Override
    @EnabledIfSystemProperty(named = ALL_CASES, matches = "true")
    protected void testJoinDynamicFilteringDisabled()
    {
        super.testJoinDynamicFilteringDisabled();
    }

    @Test
    @Override
    @EnabledIfSystemProperty(named = ALL_CASES, matches = "true")
    protected void testJoinDynamicFilteringEnabled()
    {
        super.testJoinDynamicFilteringEnabled();
    }

    @Test
    @Override
    @EnabledIfSystemProperty(named = ALL_CASES, matches = "true")
    protected void testExplainAnalyze()
    {
        super.testExplainAnalyze();
    }

    @Test
    @Override
    @EnabledIfSystemProperty(named = ALL_CASES, matches = "true")
    protected void testRequestTimeouts()
    {
        super.testRequestTimeouts();
    }
}
