package io.lancetrino.sharing.server;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * HMAC-SHA256 signatures of file URLs and of the server's page and refresh tokens.
 */
public final class UrlSigner
{
    private final SecretKeySpec key;

    public UrlSigner(byte[] key)
    {
        this.key = new SecretKeySpec(key.clone(), "HmacSHA256");
    }

    public String sign(String text)
    {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            return HexFormat.of().formatHex(mac.doFinal(text.getBytes(UTF_8)));
        }
        catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    public boolean verify(String text, String signature)
    {
        return MessageDigest.isEqual(sign(text).getBytes(UTF_8), signature.getBytes(UTF_8));
    }

    /**
     * What a file URL signs: {@code {share}/{schema}/{table}/{fileId}\n{range}\n{expires}}.
     */
    public static String fileUrlText(String share, String schema, String table, String fileId, String range, long expires)
    {
        return share + "/" + schema + "/" + table + "/" + fileId + "\n" + range + "\n" + expires;
    }

    @Override
    public String toString()
    {
        return "UrlSigner";
    }
}
