package io.lancetrino.plugin;

import io.trino.spi.connector.ConnectorTransactionHandle;

public enum LanceTransactionHandle
        implements ConnectorTransactionHandle
{
    INSTANCE
}
