package io.lancetrino.sharing.server;

import io.airlift.http.server.HttpServer;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.handler.ContextHandler;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

import java.lang.reflect.Field;
import java.nio.ByteBuffer;

/**
 * The answers Jetty writes itself, before the servlet sees a request (ambiguous or overlong URIs, bad header syntax,
 * oversized headers): the protocol's JSON error body with the status's reason phrase, whatever the client accepts, and
 * never a stack trace or Jetty's own message.
 */
final class JsonErrorHandler
        extends ErrorHandler
{
    private static final String JSON = "application/json; charset=utf-8";

    private JsonErrorHandler() {}

    /**
     * Replaces the error handlers of the started server and of its servlet context. Airlift keeps the Jetty server to
     * itself, so it is reached by reflection; a future Airlift without that field fails the start, not the answers.
     */
    static void install(HttpServer httpServer)
    {
        Server server;
        try {
            Field field = HttpServer.class.getDeclaredField("server");
            field.setAccessible(true);
            server = (Server) field.get(httpServer);
        }
        catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException("Cannot install the JSON error answers on Airlift's HTTP server", e);
        }
        JsonErrorHandler handler = new JsonErrorHandler();
        server.setErrorHandler(handler);
        for (ContextHandler context : server.getDescendants(ContextHandler.class)) {
            context.setErrorHandler(handler);
        }
    }

    @Override
    protected void generateResponse(Request request, Response response, int code, String message, Throwable cause, Callback callback)
    {
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, JSON);
        response.write(true, ByteBuffer.wrap(body(code)), callback);
    }

    @Override
    public ByteBuffer badMessageError(int status, String reason, HttpFields.Mutable fields)
    {
        fields.put(HttpHeader.CONTENT_TYPE, JSON);
        return ByteBuffer.wrap(body(status));
    }

    static byte[] body(int status)
    {
        String code = switch (status) {
            case 400 -> SharingException.INVALID_PARAMETER_VALUE;
            case 401 -> SharingException.UNAUTHENTICATED;
            case 403 -> SharingException.FORBIDDEN;
            case 404 -> SharingException.RESOURCE_DOES_NOT_EXIST;
            case 405 -> SharingException.UNSUPPORTED_OPERATION;
            case 413, 414, 431 -> SharingException.REQUEST_TOO_LARGE;
            default -> status >= 500 ? SharingException.INTERNAL_ERROR : SharingException.INVALID_PARAMETER_VALUE;
        };
        return SharingException.jsonBody(code, HttpStatus.getMessage(status));
    }
}
