package io.lancetrino.plugin;

import com.google.common.collect.ImmutableList;
import com.google.inject.Inject;
import io.airlift.log.Logger;
import io.lancetrino.metadata.LanceTable;
import io.lancetrino.metadata.TableSnapshot;
import io.lancetrino.metadata.fs.ExclusiveCreateUnsupportedException;
import io.lancetrino.metadata.fs.LocalTableFileSystem;
import io.lancetrino.metadata.fs.TableFileSystem;
import io.lancetrino.metadata.maintenance.Locations;
import io.lancetrino.metadata.schema.LanceField;
import io.lancetrino.split.LanceColumnHandle;
import io.lancetrino.split.LanceConfig;
import io.lancetrino.split.LanceTables;
import io.lancetrino.split.arrow.TrinoTypes;
import io.lancetrino.split.fs.LanceFileSystems;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.security.ConnectorIdentity;
import io.trino.spi.type.Type;
import io.trino.spi.type.TypeManager;

import java.io.IOException;
import java.util.List;
import java.util.Optional;

import static io.lancetrino.split.LanceErrorCode.LANCE_EXCLUSIVE_CREATE_UNSUPPORTED;
import static io.lancetrino.split.LanceErrorCode.LANCE_FILESYSTEM_ERROR;
import static io.trino.spi.StandardErrorCode.NOT_SUPPORTED;
import static io.trino.spi.StandardErrorCode.SCHEMA_ALREADY_EXISTS;
import static io.trino.spi.StandardErrorCode.SCHEMA_NOT_FOUND;
import static io.trino.spi.StandardErrorCode.TABLE_ALREADY_EXISTS;
import static io.trino.spi.StandardErrorCode.SCHEMA_NOT_EMPTY;
import static java.util.Objects.requireNonNull;

/**
 * The warehouse layout: {@code <warehouse>/<schema>/<table>.lance/} is table {@code <schema>.<table>}; a directory is a
 * table only if it holds {@code _versions/}.
 */
public final class LanceCatalog
{
    private static final Logger log = Logger.get(LanceCatalog.class);
    public static final String TABLE_SUFFIX = ".lance";
    // object stores have no directories: an empty schema exists only through an object below its prefix
    private static final String SCHEMA_MARKER = ".lance-schema";

    private final LanceTables tables;
    private final TypeManager typeManager;
    private final String warehouse;

    @Inject
    public LanceCatalog(LanceTables tables, TypeManager typeManager, LanceConfig config)
    {
        this.tables = requireNonNull(tables, "tables is null");
        this.typeManager = requireNonNull(typeManager, "typeManager is null");
        this.warehouse = withoutTrailingSlash(config.getCatalogRoot());
    }

    /**
     * {@code s3://bucket/warehouse/} becomes {@code s3://bucket/warehouse}; a bucket's root, {@code s3://bucket/}, keeps
     * its slash, without which it is no file system location.
     */
    private static String withoutTrailingSlash(String location)
    {
        if (!location.endsWith("/") || location.length() == 1 || location.matches("[A-Za-z][A-Za-z0-9+.-]*://[^/]*/")) {
            return location;
        }
        return location.substring(0, location.length() - 1);
    }

    /**
     * Whether the catalog shows the tables of a sharing profile (read-only) rather than a warehouse.
     */
    public boolean isRecipient()
    {
        return tables.isRecipient();
    }

    public List<String> listSchemas(ConnectorIdentity identity)
    {
        return listDirectories(identity, warehouse).stream()
                .filter(LanceCatalog::isVisibleName)
                .sorted()
                .collect(ImmutableList.toImmutableList());
    }

    public boolean schemaExists(ConnectorIdentity identity, String schema)
    {
        return listSchemas(identity).contains(schema);
    }

    public List<SchemaTableName> listTables(ConnectorIdentity identity, String schema)
    {
        String schemaLocation = TableFileSystem.join(warehouse, schema);
        TableFileSystem fileSystem = tables.fileSystem(identity, warehouse);
        return listDirectories(identity, schemaLocation).stream()
                .filter(name -> name.endsWith(TABLE_SUFFIX))
                .map(name -> name.substring(0, name.length() - TABLE_SUFFIX.length()))
                .filter(LanceCatalog::isVisibleName)
                .filter(name -> LanceTable.isTable(fileSystem, tableRoot(new SchemaTableName(schema, name))))
                .sorted()
                .map(name -> new SchemaTableName(schema, name))
                .collect(ImmutableList.toImmutableList());
    }

    public Optional<LanceTable> openTable(ConnectorIdentity identity, SchemaTableName name)
    {
        String root = tableRoot(name);
        if (!LanceTable.isTable(tables.fileSystem(identity, root), root)) {
            return Optional.empty();
        }
        return Optional.of(tables.open(identity, root, name.toString()));
    }

    public LanceTable openTable(ConnectorIdentity identity, String root, SchemaTableName name)
    {
        return tables.open(identity, root, name.toString());
    }

    /**
     * The storage options the Lance SDK opens data files under this location with.
     */
    public java.util.Map<String, String> storageOptions(String location)
    {
        return tables.storageOptions(location);
    }

    public TableFileSystem fileSystem(ConnectorIdentity identity, String location)
    {
        return tables.fileSystem(identity, location);
    }

    /**
     * Refuses a write before it writes anything when the table's store cannot make the put-if-absent commits need.
     */
    public void verifyWritable(ConnectorIdentity identity, SchemaTableName name, String tableRoot)
    {
        try {
            tables.fileSystem(identity, tableRoot).verifyExclusiveCreate(tableRoot);
        }
        catch (ExclusiveCreateUnsupportedException e) {
            throw new TrinoException(LANCE_EXCLUSIVE_CREATE_UNSUPPORTED, "Cannot write table %s at %s: %s. The table was not changed".formatted(name, tableRoot, e.getMessage()), e);
        }
        catch (IOException e) {
            throw new TrinoException(LANCE_FILESYSTEM_ERROR, "Cannot write table %s at %s: %s".formatted(name, tableRoot, e.getMessage()), e);
        }
    }

    public void createSchema(ConnectorIdentity identity, String schema)
    {
        if (schemaExists(identity, schema)) {
            throw new TrinoException(SCHEMA_ALREADY_EXISTS, "Schema already exists: '%s'".formatted(schema));
        }
        String location = TableFileSystem.join(warehouse, schema);
        try {
            TableFileSystem fileSystem = tables.fileSystem(identity, location);
            fileSystem.createDirectory(location);
            if (!LanceFileSystems.isLocal(location)) {
                fileSystem.writeFile(TableFileSystem.join(location, SCHEMA_MARKER), new byte[0]);
            }
        }
        catch (IOException e) {
            throw new TrinoException(LANCE_FILESYSTEM_ERROR, "Cannot create schema directory %s: %s".formatted(location, e.getMessage()), e);
        }
    }

    /**
     * Only an empty schema is dropped: a directory holding tables, or anything else, is left alone.
     */
    public void dropSchema(ConnectorIdentity identity, String schema)
    {
        String location = TableFileSystem.join(warehouse, schema);
        TableFileSystem fileSystem = tables.fileSystem(identity, location);
        try {
            if (!listTables(identity, schema).isEmpty() || fileSystem.listFiles(location).stream().anyMatch(file -> !file.name().equals(SCHEMA_MARKER)) || !fileSystem.listDirectories(location).isEmpty()) {
                throw new TrinoException(SCHEMA_NOT_EMPTY, "Cannot drop non-empty schema '%s' (%s)".formatted(schema, location));
            }
            fileSystem.deleteDirectory(location);
        }
        catch (IOException e) {
            throw new TrinoException(LANCE_FILESYSTEM_ERROR, "Cannot drop schema directory %s: %s".formatted(location, e.getMessage()), e);
        }
    }

    /**
     * Deletes the table directory with its versions, branches and files. Shallow clones elsewhere that read this
     * table's files through base paths stop working (see docs/limits.md).
     */
    public void dropTable(ConnectorIdentity identity, SchemaTableName name)
    {
        String root = tableRoot(name);
        try {
            tables.fileSystem(identity, root).deleteDirectory(root);
        }
        catch (IOException e) {
            throw new TrinoException(LANCE_FILESYSTEM_ERROR, "Cannot drop table %s at %s: %s".formatted(name, root, e.getMessage()), e);
        }
    }

    /**
     * Moves the table directory. Branches record their parent's location in their base paths, so a table with branches
     * is not renamed; shallow clones elsewhere that read this table's files would break too (see docs/limits.md).
     */
    public void renameTable(ConnectorIdentity identity, SchemaTableName source, SchemaTableName target)
    {
        String from = tableRoot(source);
        String to = tableRoot(target);
        if (!LanceFileSystems.isLocal(from)) {
            throw new TrinoException(NOT_SUPPORTED, "Renaming tables is supported on local storage only, not at " + from);
        }
        if (!tables.open(identity, from, source.toString()).refs().listBranches().isEmpty()) {
            throw new TrinoException(NOT_SUPPORTED, "Cannot rename table %s: its branches refer to its files by location".formatted(source));
        }
        if (!schemaExists(identity, target.getSchemaName())) {
            throw new TrinoException(SCHEMA_NOT_FOUND, "Schema '%s' does not exist".formatted(target.getSchemaName()));
        }
        try {
            java.nio.file.Files.move(LocalTableFileSystem.toPath(from), LocalTableFileSystem.toPath(to));
        }
        catch (java.nio.file.FileAlreadyExistsException e) {
            throw new TrinoException(TABLE_ALREADY_EXISTS, "Table already exists: " + target, e);
        }
        catch (IOException e) {
            throw new TrinoException(LANCE_FILESYSTEM_ERROR, "Cannot rename table %s to %s: %s".formatted(source, target, e.getMessage()), e);
        }
    }

    public boolean isInWarehouse(String location)
    {
        return Locations.isWithin(Locations.normalize(location), Locations.normalize(warehouse));
    }

    public String tableRoot(SchemaTableName name)
    {
        return TableFileSystem.join(TableFileSystem.join(warehouse, name.getSchemaName()), name.getTableName() + TABLE_SUFFIX);
    }

    /**
     * The columns Trino can see: a field whose type has no Trino mapping is hidden (and logged), not a failed query.
     */
    public List<LanceColumnHandle> columns(SchemaTableName table, TableSnapshot snapshot)
    {
        return columns(table, snapshot, typeManager);
    }

    public static List<LanceColumnHandle> columns(SchemaTableName table, TableSnapshot snapshot, TypeManager typeManager)
    {
        ImmutableList.Builder<LanceColumnHandle> columns = ImmutableList.builder();
        for (LanceField field : snapshot.schema().fields()) {
            Optional<Type> type = TrinoTypes.toTrinoType(field, typeManager);
            if (type.isEmpty()) {
                log.warn("Table %s: column %s of Lance type %s has no Trino type and is hidden", table, field.name(), field.logicalType());
                continue;
            }
            ImmutableList.Builder<Integer> ids = ImmutableList.builder();
            field.collectIds(ids);
            columns.add(new LanceColumnHandle(field.name(), field.id(), ids.build(), type.get(), field.nullable()));
        }
        return columns.build();
    }

    private List<String> listDirectories(ConnectorIdentity identity, String location)
    {
        try {
            return tables.fileSystem(identity, location).listDirectories(location);
        }
        catch (IOException e) {
            throw new TrinoException(LANCE_FILESYSTEM_ERROR, "Cannot list %s: %s".formatted(location, e.getMessage()), e);
        }
    }

    // Trino lower-cases identifiers, so other names could never be addressed
    private static boolean isVisibleName(String name)
    {
        return !name.isEmpty() && !name.startsWith(".") && !name.startsWith("_") && name.equals(name.toLowerCase(java.util.Locale.ROOT));
    }
}
