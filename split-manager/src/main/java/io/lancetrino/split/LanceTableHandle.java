package io.lancetrino.split;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.google.common.collect.ImmutableList;
import io.lancetrino.metadata.TableSnapshot;
import io.lancetrino.split.search.AnnSearch;
import io.lancetrino.split.search.TextSearch;
import io.lancetrino.split.search.VectorTopN;
import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.predicate.TupleDomain;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

import static java.util.Objects.requireNonNull;

/**
 * One version of one branch of a Lance table, pinned at planning so every split reads the same snapshot.
 *
 * @param branch empty for main
 * @param limit rows the query needs at most, when no filter applies
 * @param labelPredicates filters on array columns, implied by the query's filter, that a label_list index may answer
 * @param vectorTopN an {@code ORDER BY <vector distance> LIMIT n} each split applies to its own rows
 * @param vectorSearch a nearest-neighbour search the SDK runs in the scan's only split, in place of reading the table
 * @param textSearch a full-text search the SDK runs in the scan's only split, in place of reading the table
 */
public record LanceTableHandle(
        SchemaTableName schemaTableName,
        String tableRoot,
        Optional<String> branch,
        long version,
        OptionalLong limit,
        TupleDomain<LanceColumnHandle> constraint,
        List<LabelPredicate> labelPredicates,
        Optional<VectorTopN> vectorTopN,
        Optional<AnnSearch> vectorSearch,
        Optional<TextSearch> textSearch)
        implements ConnectorTableHandle
{
    public LanceTableHandle
    {
        labelPredicates = ImmutableList.copyOf(labelPredicates);
        requireNonNull(schemaTableName, "schemaTableName is null");
        requireNonNull(tableRoot, "tableRoot is null");
        requireNonNull(branch, "branch is null");
        requireNonNull(limit, "limit is null");
        requireNonNull(constraint, "constraint is null");
        requireNonNull(vectorTopN, "vectorTopN is null");
        requireNonNull(vectorSearch, "vectorSearch is null");
        requireNonNull(textSearch, "textSearch is null");
    }

    public static LanceTableHandle of(SchemaTableName name, TableSnapshot snapshot)
    {
        return new LanceTableHandle(name, snapshot.tableRoot(), snapshot.branch(), snapshot.version(), OptionalLong.empty(), TupleDomain.all(), List.of(), Optional.empty(), Optional.empty(), Optional.empty());
    }

    public LanceTableHandle withLimit(long limit)
    {
        return new LanceTableHandle(schemaTableName, tableRoot, branch, version, OptionalLong.of(limit), constraint, labelPredicates, vectorTopN, vectorSearch, textSearch);
    }

    /**
     * With a predicate the page source uses to skip reading rows that cannot match; Trino still applies the whole
     * filter, so the predicate only has to be implied by it.
     */
    public LanceTableHandle withConstraint(TupleDomain<LanceColumnHandle> constraint)
    {
        return new LanceTableHandle(schemaTableName, tableRoot, branch, version, limit, constraint, labelPredicates, vectorTopN, vectorSearch, textSearch);
    }

    /** With filters on array columns a label_list index may answer; Trino still applies them. */
    public LanceTableHandle withLabelPredicates(List<LabelPredicate> labelPredicates)
    {
        return new LanceTableHandle(schemaTableName, tableRoot, branch, version, limit, constraint, labelPredicates, vectorTopN, vectorSearch, textSearch);
    }

    /** With the nearest-rows top-N each split applies before the engine's final one. */
    public LanceTableHandle withVectorTopN(VectorTopN vectorTopN)
    {
        return new LanceTableHandle(schemaTableName, tableRoot, branch, version, limit, constraint, labelPredicates, Optional.of(vectorTopN), vectorSearch, textSearch);
    }

    /** With a nearest-neighbour search through a vector index in place of the scan. */
    public LanceTableHandle withVectorSearch(AnnSearch vectorSearch)
    {
        return new LanceTableHandle(schemaTableName, tableRoot, branch, version, limit, constraint, labelPredicates, vectorTopN, Optional.of(vectorSearch), textSearch);
    }

    /** With a full-text search in place of the scan. */
    public LanceTableHandle withTextSearch(TextSearch textSearch)
    {
        return new LanceTableHandle(schemaTableName, tableRoot, branch, version, limit, constraint, labelPredicates, vectorTopN, vectorSearch, Optional.of(textSearch));
    }

    /** Whether the SDK searches the version in one split instead of the connector reading its fragments. */
    @JsonIgnore
    public boolean isIndexSearch()
    {
        return vectorSearch.isPresent() || textSearch.isPresent();
    }

    @JsonIgnore
    public String describeVersion()
    {
        return TableSnapshot.describe(branch, version);
    }

    /** How messages name the table: schema, table, branch and version. */
    @JsonIgnore
    public String displayName()
    {
        return schemaTableName + "@" + describeVersion();
    }

    /** As {@code EXPLAIN} shows the scan: with the columns of its constraint, which the page source enforces where it can. */
    @Override
    public String toString()
    {
        String scan = displayName();
        if (!constraint.isAll()) {
            scan += " constraint on " + constraint.getDomains().map(domains -> domains.keySet().stream().map(LanceColumnHandle::name).sorted().toList().toString()).orElse("[none]");
        }
        if (vectorSearch.isPresent()) {
            return scan + " " + vectorSearch.get();
        }
        if (textSearch.isPresent()) {
            return scan + " " + textSearch.get();
        }
        if (vectorTopN.isPresent()) {
            scan += " nearest %s per split by %s".formatted(vectorTopN.get().count(), vectorTopN.get().distanceColumn());
        }
        return scan;
    }
}
