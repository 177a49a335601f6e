/*
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package io.trino.plugin.paimon.catalog.rest;

import com.google.common.collect.ImmutableMap;
import io.trino.spi.TrinoException;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_INTERNAL_ERROR;
import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

/**
 * Signs a request as Alibaba DLF expects from Paimon's REST client ({@code token.provider=dlf}, the default
 * signer): a few {@code x-dlf-*} headers and an {@code Authorization} header whose signature is an HMAC-SHA256 chain
 * (the secret, the day, the region, the product, the request type) over the method, path, sorted query, the signed
 * headers and the unsigned-payload marker.
 */
final class DlfSigner
{
    static final String DATE_HEADER = "x-dlf-date";
    static final String CONTENT_SHA256_HEADER = "x-dlf-content-sha256";
    static final String VERSION_HEADER = "x-dlf-version";
    static final String SECURITY_TOKEN_HEADER = "x-dlf-security-token";
    static final String CONTENT_MD5_HEADER = "Content-MD5";
    static final String CONTENT_TYPE_HEADER = "Content-Type";

    private static final String ALGORITHM = "DLF4-HMAC-SHA256";
    private static final String PRODUCT = "DlfNext";
    private static final String REQUEST_TYPE = "aliyun_v4_request";
    private static final String UNSIGNED_PAYLOAD = "UNSIGNED-PAYLOAD";
    private static final DateTimeFormatter DATE_TIME = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

    private final String accessKeyId;
    private final String accessKeySecret;
    private final Optional<String> securityToken;
    private final String region;

    DlfSigner(String accessKeyId, String accessKeySecret, Optional<String> securityToken, String region)
    {
        this.accessKeyId = requireNonNull(accessKeyId, "accessKeyId is null");
        this.accessKeySecret = requireNonNull(accessKeySecret, "accessKeySecret is null");
        this.securityToken = requireNonNull(securityToken, "securityToken is null");
        this.region = requireNonNull(region, "region is null");
    }

    /**
     * The headers that authenticate one request.
     *
     * @param query the query parameters as they appear in the URL (values already encoded)
     */
    Map<String, String> sign(String method, String path, Map<String, String> query, Optional<String> body, Instant now)
    {
        String dateTime = DATE_TIME.format(now);
        String date = dateTime.substring(0, 8);
        Map<String, String> headers = new TreeMap<>();
        headers.put(DATE_HEADER, dateTime);
        headers.put(CONTENT_SHA256_HEADER, UNSIGNED_PAYLOAD);
        headers.put(VERSION_HEADER, "v1");
        body.filter(text -> !text.isEmpty()).ifPresent(text -> {
            headers.put(CONTENT_TYPE_HEADER, "application/json");
            headers.put(CONTENT_MD5_HEADER, Base64.getEncoder().encodeToString(digest("MD5", text)));
        });
        securityToken.ifPresent(token -> headers.put(SECURITY_TOKEN_HEADER, token));

        StringBuilder canonical = new StringBuilder(method).append('\n').append(path).append('\n');
        String separator = "";
        for (Map.Entry<String, String> parameter : new TreeMap<>(query).entrySet()) {
            canonical.append(separator).append(parameter.getKey().trim());
            if (!parameter.getValue().isEmpty()) {
                canonical.append('=').append(parameter.getValue().trim());
            }
            separator = "&";
        }
        // the signed headers by lower-case name; every header signed here is one of them
        Map<String, String> signed = new TreeMap<>();
        headers.forEach((name, value) -> signed.put(name.toLowerCase(Locale.ROOT), value.trim()));
        signed.forEach((name, value) -> canonical.append('\n').append(name).append(':').append(value));
        canonical.append('\n').append(UNSIGNED_PAYLOAD);

        String scope = "%s/%s/%s/%s".formatted(date, region, PRODUCT, REQUEST_TYPE);
        String stringToSign = String.join("\n", ALGORITHM, dateTime, scope, HexFormat.of().formatHex(digest("SHA-256", canonical.toString())));
        byte[] key = hmac(("aliyun_v4" + accessKeySecret).getBytes(UTF_8), date);
        key = hmac(key, region);
        key = hmac(key, PRODUCT);
        key = hmac(key, REQUEST_TYPE);
        String signature = HexFormat.of().formatHex(hmac(key, stringToSign));
        headers.put("Authorization", "%s Credential=%s/%s,Signature=%s".formatted(ALGORITHM, accessKeyId, scope, signature));
        return ImmutableMap.copyOf(headers);
    }

    private static byte[] digest(String algorithm, String data)
    {
        try {
            return MessageDigest.getInstance(algorithm).digest(data.getBytes(UTF_8));
        }
        catch (GeneralSecurityException e) {
            throw new TrinoException(PAIMON_INTERNAL_ERROR, algorithm + " is not available to sign DLF requests", e);
        }
    }

    private static byte[] hmac(byte[] key, String data)
    {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(data.getBytes(UTF_8));
        }
        catch (GeneralSecurityException e) {
            throw new TrinoException(PAIMON_INTERNAL_ERROR, "HMAC-SHA256 is not available to sign DLF requests", e);
        }
    }
}
