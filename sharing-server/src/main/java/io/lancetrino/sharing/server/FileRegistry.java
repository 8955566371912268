package io.lancetrino.sharing.server;

import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Optional;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

/**
 * The files the server has signed URLs for, by share, schema, table and file id: a file URL reaches only files that
 * were listed for a version the share allows, and no request text is ever used as a path. Bounded; a file that fell
 * out answers 404 and the client queries again.
 */
public final class FileRegistry
{
    public static final int FILE_ID_LENGTH = 32;

    public record SharedFile(String location, long size)
    {
        public SharedFile
        {
            requireNonNull(location, "location is null");
        }
    }

    private final Cache<String, SharedFile> files;

    public FileRegistry(long maxEntries)
    {
        this.files = CacheBuilder.newBuilder().maximumSize(maxEntries).build();
    }

    public void register(String share, String schema, String table, String fileId, SharedFile file)
    {
        files.put(key(share, schema, table, fileId), file);
    }

    public Optional<SharedFile> get(String share, String schema, String table, String fileId)
    {
        return Optional.ofNullable(files.getIfPresent(key(share, schema, table, fileId)));
    }

    /**
     * A stable id for a stored file: the first 32 hex digits of the SHA-256 of its absolute location.
     */
    public static String fileId(String location)
    {
        return hash(location);
    }

    public static String hash(String text)
    {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(UTF_8))).substring(0, FILE_ID_LENGTH);
        }
        catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    public static boolean isFileId(String text)
    {
        return text.length() == FILE_ID_LENGTH && text.chars().allMatch(c -> (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'));
    }

    private static String key(String share, String schema, String table, String fileId)
    {
        return share + "/" + schema + "/" + table + "/" + fileId;
    }
}
