package io.lancetrino.metadata;

import com.google.protobuf.InvalidProtocolBufferException;
import io.lancetrino.metadata.fs.TableFileSystem;
import io.lancetrino.metadata.proto.Transaction;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.Locale;
import java.util.Optional;

/**
 * The transaction that produced a version: the inline section of the manifest first, then
 * {@code _transactions/{transaction_file}}.
 */
public final class Transactions
{
    private Transactions() {}

    public static Optional<Transaction> read(TableFileSystem fileSystem, TableSnapshot snapshot)
    {
        return read(fileSystem, snapshot.datasetLocation(), snapshot.manifestFile());
    }

    public static Optional<Transaction> read(TableFileSystem fileSystem, String datasetLocation, ManifestFile manifestFile)
    {
        if (manifestFile.inlineTransaction().isPresent()) {
            return manifestFile.inlineTransaction();
        }
        String name = manifestFile.manifest().getTransactionFile();
        if (name.isEmpty()) {
            return Optional.empty();
        }
        String location = TableFileSystem.join(datasetLocation, "_transactions/" + name);
        try {
            return Optional.of(Transaction.parseFrom(fileSystem.readFile(location)));
        }
        catch (FileNotFoundException e) {
            return Optional.empty();
        }
        catch (InvalidProtocolBufferException e) {
            throw new LanceTableException(LanceErrorKind.CORRUPT_MANIFEST, "Corrupt Lance transaction file %s: %s".formatted(location, e.getMessage()), e);
        }
        catch (IOException e) {
            throw new LanceTableException(LanceErrorKind.FILESYSTEM_ERROR, "Cannot read transaction file %s: %s".formatted(location, e.getMessage()), e);
        }
    }

    /**
     * The operation in Lance's words, lower case: {@code append}, {@code delete}, {@code overwrite}, {@code clone}, ...
     */
    public static String operationName(Transaction transaction)
    {
        return transaction.getOperationCase().name().toLowerCase(Locale.ROOT);
    }
}
