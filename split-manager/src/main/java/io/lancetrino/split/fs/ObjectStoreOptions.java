package io.lancetrino.split.fs;

import com.google.common.collect.ImmutableMap;

import java.util.Locale;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * The storage options the Lance SDK opens data files with, derived from the catalog's own file system properties so
 * that the SDK reads and writes with the same endpoint, credentials and addressing as trino-filesystem does for the
 * manifests. The SDK's option names are those of Rust's object_store. Credentials only in the environment of the
 * server are still found by the SDK, as by trino-filesystem's default credential chains.
 */
public record ObjectStoreOptions(Map<String, String> options)
{
    public static final ObjectStoreOptions NONE = new ObjectStoreOptions(ImmutableMap.of());

    public ObjectStoreOptions
    {
        options = ImmutableMap.copyOf(requireNonNull(options, "options is null"));
    }

    /**
     * @param catalogProperties the catalog's properties as Trino passes them to the connector factory
     */
    public static ObjectStoreOptions fromCatalogProperties(Map<String, String> catalogProperties)
    {
        ImmutableMap.Builder<String, String> options = ImmutableMap.builder();
        if (enabled(catalogProperties, "fs.s3.enabled") || enabled(catalogProperties, "fs.native-s3.enabled")) {
            copy(catalogProperties, "s3.aws-access-key", options, "aws_access_key_id");
            copy(catalogProperties, "s3.aws-secret-key", options, "aws_secret_access_key");
            copy(catalogProperties, "s3.region", options, "aws_region");
            String endpoint = catalogProperties.get("s3.endpoint");
            if (endpoint != null) {
                options.put("aws_endpoint", endpoint);
                // object_store refuses plain HTTP unless told; an http:// endpoint in the catalog is a deliberate choice
                if (endpoint.toLowerCase(Locale.ROOT).startsWith("http://")) {
                    options.put("allow_http", "true");
                }
            }
            // trino-filesystem defaults to virtual-hosted requests, object_store to path-style when an endpoint is set
            options.put("aws_virtual_hosted_style_request", String.valueOf(!enabled(catalogProperties, "s3.path-style-access")));
        }
        if (enabled(catalogProperties, "fs.gcs.enabled") || enabled(catalogProperties, "fs.native-gcs.enabled")) {
            copy(catalogProperties, "gcs.json-key-file-path", options, "google_service_account");
            copy(catalogProperties, "gcs.json-key", options, "google_service_account_key");
        }
        if (enabled(catalogProperties, "fs.azure.enabled") || enabled(catalogProperties, "fs.native-azure.enabled")) {
            copy(catalogProperties, "azure.access-key", options, "azure_storage_account_key");
            copy(catalogProperties, "azure.oauth.client-id", options, "azure_storage_client_id");
            copy(catalogProperties, "azure.oauth.secret", options, "azure_storage_client_secret");
            copy(catalogProperties, "azure.oauth.tenant-id", options, "azure_storage_tenant_id");
        }
        return new ObjectStoreOptions(options.buildKeepingLast());
    }

    /**
     * The options for one location: none for local files, which the SDK opens as plain paths.
     */
    public Map<String, String> forLocation(String location)
    {
        return LanceFileSystems.isLocal(location) ? ImmutableMap.of() : options;
    }

    // secrets stay out of logs and error messages
    @Override
    public String toString()
    {
        return "ObjectStoreOptions" + options.keySet();
    }

    private static boolean enabled(Map<String, String> properties, String name)
    {
        return Boolean.parseBoolean(properties.getOrDefault(name, "false").trim());
    }

    private static void copy(Map<String, String> properties, String property, ImmutableMap.Builder<String, String> options, String option)
    {
        String value = properties.get(property);
        if (value != null && !value.isBlank()) {
            options.put(option, value.trim());
        }
    }
}
