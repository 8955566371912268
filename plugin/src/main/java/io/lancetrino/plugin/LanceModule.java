package io.lancetrino.plugin;

import com.google.inject.Binder;
import com.google.inject.Module;
import com.google.inject.Scopes;
import com.google.inject.multibindings.Multibinder;
import io.lancetrino.plugin.procedure.CleanupTableProcedure;
import io.lancetrino.plugin.index.IndexOperations;
import io.lancetrino.plugin.procedure.CreateIndexTableProcedure;
import io.lancetrino.plugin.procedure.DropIndexTableProcedure;
import io.lancetrino.plugin.procedure.LanceTableProcedure;
import io.lancetrino.plugin.procedure.OptimizeIndexesTableProcedure;
import io.lancetrino.plugin.procedure.LanceTableProcedures;
import io.lancetrino.plugin.procedure.MergeBranchTableProcedure;
import io.lancetrino.plugin.procedure.OptimizeTableProcedure;
import io.lancetrino.plugin.procedure.SetAutoCleanupTableProcedure;
import io.lancetrino.plugin.write.LancePageSinkProvider;
import io.lancetrino.plugin.write.SchemaChanges;
import io.lancetrino.plugin.write.TableCommits;
import io.lancetrino.plugin.write.TableWrites;
import io.lancetrino.procedures.BranchOperations;
import io.lancetrino.procedures.CleanupOperations;
import io.lancetrino.procedures.CloneOperations;
import io.lancetrino.plugin.changes.TableChangesFunction;
import io.lancetrino.plugin.search.TextSearchFunction;
import io.lancetrino.plugin.search.VectorSearchFunction;
import io.lancetrino.procedures.LanceProcedures;
import io.lancetrino.procedures.MergeOperations;
import io.lancetrino.procedures.RowSecurity;
import io.lancetrino.procedures.ProcedureTables;
import io.lancetrino.procedures.TagOperations;
import io.lancetrino.split.LanceConfig;
import io.lancetrino.split.LancePageSourceProvider;
import io.lancetrino.split.sdk.SdkReads;
import io.lancetrino.plugin.sdk.LanceSdk;
import io.lancetrino.plugin.sdk.LanceSdks;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import io.lancetrino.split.LanceSplitManager;
import io.lancetrino.split.index.ScalarIndexLookup;
import io.lancetrino.split.LanceTables;
import io.lancetrino.split.fs.LanceFileSystems;

import static io.airlift.configuration.ConfigBinder.configBinder;

public final class LanceModule
        implements Module
{
    @Override
    public void configure(Binder binder)
    {
        configBinder(binder).bindConfig(LanceConfig.class);
        binder.bind(LanceFileSystems.class).in(Scopes.SINGLETON);
        binder.bind(LanceTables.class).in(Scopes.SINGLETON);
        binder.bind(LanceCatalog.class).in(Scopes.SINGLETON);
        binder.bind(ScalarIndexLookup.class).in(Scopes.SINGLETON);
        binder.bind(LanceSplitManager.class).in(Scopes.SINGLETON);
        binder.bind(LancePageSourceProvider.class).in(Scopes.SINGLETON);
        binder.bind(SdkReads.class).to(LanceSdk.class);
        binder.bind(TableCommits.class).in(Scopes.SINGLETON);
        binder.bind(TableWrites.class).in(Scopes.SINGLETON);
        binder.bind(SchemaChanges.class).in(Scopes.SINGLETON);
        binder.bind(LancePageSinkProvider.class).in(Scopes.SINGLETON);
        binder.bind(ProcedureTables.class).to(LanceProcedureTables.class).in(Scopes.SINGLETON);
        binder.bind(BranchOperations.class).in(Scopes.SINGLETON);
        binder.bind(TagOperations.class).in(Scopes.SINGLETON);
        binder.bind(CloneOperations.class).in(Scopes.SINGLETON);
        binder.bind(MergeOperations.class).in(Scopes.SINGLETON);
        binder.bind(RowSecurity.class).in(Scopes.SINGLETON);
        binder.bind(CleanupOperations.class).in(Scopes.SINGLETON);
        binder.bind(LanceSessionProperties.class).in(Scopes.SINGLETON);
        binder.bind(LanceProcedures.class).in(Scopes.SINGLETON);
        Multibinder<LanceTableProcedure> tableProcedures = Multibinder.newSetBinder(binder, LanceTableProcedure.class);
        tableProcedures.addBinding().to(MergeBranchTableProcedure.class).in(Scopes.SINGLETON);
        tableProcedures.addBinding().to(CleanupTableProcedure.class).in(Scopes.SINGLETON);
        tableProcedures.addBinding().to(SetAutoCleanupTableProcedure.class).in(Scopes.SINGLETON);
        tableProcedures.addBinding().to(OptimizeTableProcedure.class).in(Scopes.SINGLETON);
        tableProcedures.addBinding().to(CreateIndexTableProcedure.class).in(Scopes.SINGLETON);
        tableProcedures.addBinding().to(DropIndexTableProcedure.class).in(Scopes.SINGLETON);
        tableProcedures.addBinding().to(OptimizeIndexesTableProcedure.class).in(Scopes.SINGLETON);
        binder.bind(IndexOperations.class).in(Scopes.SINGLETON);
        binder.bind(LanceTableProcedures.class).in(Scopes.SINGLETON);
        binder.bind(TableChangesFunction.class).in(Scopes.SINGLETON);
        binder.bind(VectorSearchFunction.class).in(Scopes.SINGLETON);
        binder.bind(TextSearchFunction.class).in(Scopes.SINGLETON);
        binder.bind(LanceConnector.class).in(Scopes.SINGLETON);
    }

    /** The SDK add-on when it is installed, else features that need it fail naming it. */
    @Provides
    @Singleton
    public static LanceSdk lanceSdk(LanceConfig config)
    {
        return LanceSdks.load(config);
    }
}
