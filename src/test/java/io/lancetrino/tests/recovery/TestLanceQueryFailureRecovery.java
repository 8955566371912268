package io.lancetrino.tests.recovery;

import io.trino.operator.RetryPolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The failure-recovery suite with {@code retry-policy=QUERY}: a failed query runs again from the start. Each case
 * reruns its whole statement for every injected failure and waits out the injected timeouts (70-95 s a write case on
 * two cores), more than the default run can hold beside the TASK suite, so it runs on request; with
 * {@code -Dlance.tests.query-retries=true} every write case and the branch, clone and maintenance writes run (all
 * passed on 2026-12-03), and the read cases too: {@code bin/test -pl src/test -Dtest=TestLanceQueryFailureRecovery
 * -Dlance.tests.query-retries=true -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@EnabledIfSystemProperty(named = "lance.tests.query-retries", matches = "true")
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
