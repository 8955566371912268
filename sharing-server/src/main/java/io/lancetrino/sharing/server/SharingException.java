package io.lancetrino.sharing.server;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import static java.util.Objects.requireNonNull;

/**
 * A refusal with its HTTP status and protocol error code; the message goes to the client, so it never holds a token, a
 * key or a server-side path.
 */
public final class SharingException
        extends RuntimeException
{
    public static final String UNAUTHENTICATED = "UNAUTHENTICATED";
    public static final String RESOURCE_DOES_NOT_EXIST = "RESOURCE_DOES_NOT_EXIST";
    public static final String INVALID_PARAMETER_VALUE = "INVALID_PARAMETER_VALUE";
    public static final String UNSUPPORTED_OPERATION = "UNSUPPORTED_OPERATION";
    public static final String FORBIDDEN = "FORBIDDEN";
    public static final String RANGE_NOT_SATISFIABLE = "RANGE_NOT_SATISFIABLE";
    public static final String REQUEST_TOO_LARGE = "REQUEST_TOO_LARGE";
    public static final String INTERNAL_ERROR = "INTERNAL_ERROR";

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final int status;
    private final String errorCode;

    public SharingException(int status, String errorCode, String message)
    {
        super(requireNonNull(message, "message is null"));
        this.status = status;
        this.errorCode = requireNonNull(errorCode, "errorCode is null");
    }

    public int status()
    {
        return status;
    }

    public String errorCode()
    {
        return errorCode;
    }

    public static SharingException unauthenticated()
    {
        return new SharingException(401, UNAUTHENTICATED, "Missing, unknown or expired bearer token");
    }

    public static SharingException notFound(String message)
    {
        return new SharingException(404, RESOURCE_DOES_NOT_EXIST, message);
    }

    public static SharingException invalidParameter(String message)
    {
        return new SharingException(400, INVALID_PARAMETER_VALUE, message);
    }

    public static SharingException unsupported(String message)
    {
        return new SharingException(400, UNSUPPORTED_OPERATION, message);
    }

    public static SharingException forbidden(String message)
    {
        return new SharingException(403, FORBIDDEN, message);
    }

    public static SharingException requestTooLarge(long limitBytes)
    {
        return new SharingException(413, REQUEST_TOO_LARGE, "The request body is larger than %s bytes".formatted(limitBytes));
    }

    /**
     * The protocol's error body, {@code {"errorCode": ..., "message": ...}}, for the servlet's answers and Jetty's alike.
     */
    public static byte[] jsonBody(String errorCode, String message)
    {
        try {
            return MAPPER.writeValueAsBytes(MAPPER.createObjectNode().put("errorCode", errorCode).put("message", message));
        }
        catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
