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

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import io.trino.plugin.paimon.PaimonPlugin;
import io.trino.spi.connector.Connector;
import io.trino.spi.connector.ConnectorFactory;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.testing.TestingConnectorContext;
import io.trino.testing.TestingConnectorSession;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static com.google.common.collect.Iterables.getOnlyElement;
import static io.trino.spi.transaction.IsolationLevel.READ_UNCOMMITTED;
import static java.nio.charset.StandardCharsets.US_ASCII;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The {@code paimon.rest.*} keys as a catalog file gives them: what starts, what is refused at startup. */
final class TestRestCatalogConfig
{
    // for the keys refused at startup: a port nothing listens on
    private static final String URI = "http://127.0.0.1:9";

    @Test
    void startsWithoutWarehouseAndWithoutContactingTheServer()
            throws Exception
    {
        try (RecordingListener server = RecordingListener.start()) {
            // no paimon.warehouse: the server gives each table's location
            Connector connector = connector(ImmutableMap.of(
                    "paimon.catalog.type", "rest",
                    "paimon.rest.uri", server.uri(),
                    "paimon.rest.warehouse", "wh",
                    "paimon.rest.token", "t",
                    "paimon.rest.header.X-Tenant", "analytics",
                    "paimon.rest.header.X-Other", "1"));
            try {
                assertThat(server.connections()).isZero();
                // the first request, made when a query needs the catalog, carries the token and the configured headers
                assertThatThrownBy(() -> listSchemas(connector))
                        .hasMessageContaining("Cannot read the configuration of warehouse 'wh'")
                        .hasMessageContaining("HTTP 503");
            }
            finally {
                connector.shutdown();
            }
            assertThat(server.connections()).isEqualTo(1);
            RecordedRequest request = getOnlyElement(server.requests());
            assertThat(request.line()).isEqualTo("GET /v1/config?warehouse=wh HTTP/1.1");
            assertThat(request.headers())
                    .containsEntry("Authorization", "Bearer t")
                    .containsEntry("X-Tenant", "analytics")
                    .containsEntry("X-Other", "1");
        }

        try (RecordingListener server = RecordingListener.start()) {
            Connector connector = connector(ImmutableMap.of(
                    "paimon.catalog.type", "rest",
                    "paimon.rest.uri", server.uri(),
                    "paimon.rest.warehouse", "wh",
                    "paimon.rest.token.provider", "dlf",
                    "paimon.rest.dlf.access-key-id", "id",
                    "paimon.rest.dlf.access-key-secret", "secret",
                    "paimon.rest.dlf.region", "cn-hangzhou"));
            try {
                assertThat(server.connections()).isZero();
                assertThatThrownBy(() -> listSchemas(connector)).hasMessageContaining("HTTP 503");
            }
            finally {
                connector.shutdown();
            }
            // signed with the access key, for the region configured
            assertThat(getOnlyElement(server.requests()).headers().get("Authorization"))
                    .startsWith("DLF4-HMAC-SHA256 Credential=id/")
                    .contains("/cn-hangzhou/DlfNext/aliyun_v4_request,Signature=");
        }
    }

    @Test
    void rejectsMissingKeys()
    {
        assertThatThrownBy(() -> create(without("paimon.rest.uri")))
                .hasMessageContaining("paimon.rest.uri")
                .hasMessageContaining("must not be null");
        assertThatThrownBy(() -> create(without("paimon.rest.warehouse")))
                .hasMessageContaining("paimon.rest.warehouse")
                .hasMessageContaining("must not be null");
        assertThatThrownBy(() -> create(without("paimon.rest.token")))
                .hasMessageContaining("paimon.rest.token is required with paimon.rest.token.provider=bear");
        Map<String, String> dlf = new HashMap<>(without("paimon.rest.token"));
        dlf.put("paimon.rest.token.provider", "dlf");
        dlf.put("paimon.rest.dlf.access-key-id", "id");
        dlf.put("paimon.rest.dlf.access-key-secret", "secret");
        assertThatThrownBy(() -> create(dlf))
                .hasMessageContaining("paimon.rest.dlf.region are required with paimon.rest.token.provider=dlf");
    }

    @Test
    void rejectsBadValues()
    {
        Map<String, String> ftp = new HashMap<>(without("paimon.rest.uri"));
        ftp.put("paimon.rest.uri", "ftp://127.0.0.1/");
        assertThatThrownBy(() -> create(ftp))
                .hasMessageContaining("paimon.rest.uri must be an http or https URI");
        Map<String, String> provider = new HashMap<>(without("paimon.rest.token.provider"));
        provider.put("paimon.rest.token.provider", "oauth");
        assertThatThrownBy(() -> create(provider))
                .hasMessageContaining("Invalid value 'oauth'");
        Map<String, String> typo = new HashMap<>(without("paimon.rest.token"));
        typo.put("paimon.rest.tokn", "t");
        assertThatThrownBy(() -> create(typo))
                .hasMessageContaining("paimon.rest.tokn");
    }

    private static Map<String, String> without(String key)
    {
        Map<String, String> config = new HashMap<>(Map.of(
                "paimon.catalog.type", "rest",
                "paimon.rest.uri", URI,
                "paimon.rest.warehouse", "wh",
                "paimon.rest.token", "t"));
        config.remove(key);
        return config;
    }

    private static void create(Map<String, String> config)
    {
        connector(config).shutdown();
    }

    private static Connector connector(Map<String, String> config)
    {
        ConnectorFactory factory = getOnlyElement(new PaimonPlugin().getConnectorFactories());
        return factory.create("test", config, new TestingConnectorContext());
    }

    private static List<String> listSchemas(Connector connector)
    {
        ConnectorSession session = TestingConnectorSession.builder().setPropertyMetadata(connector.getSessionProperties()).build();
        ConnectorTransactionHandle transaction = connector.beginTransaction(READ_UNCOMMITTED, true, true);
        try {
            return connector.getMetadata(session, transaction).listSchemaNames(session);
        }
        finally {
            connector.rollback(transaction);
        }
    }

    private record RecordedRequest(String line, Map<String, String> headers) {}

    /**
     * A local HTTP listener that counts the connections it accepts and answers every request with 503 Service
     * Unavailable, keeping its request line and headers (names case-insensitive).
     */
    private static final class RecordingListener
            implements AutoCloseable
    {
        private final ServerSocket socket;
        private final AtomicInteger connections = new AtomicInteger();
        private final List<RecordedRequest> requests = new CopyOnWriteArrayList<>();
        private final Thread acceptor;

        private RecordingListener(ServerSocket socket)
        {
            this.socket = socket;
            this.acceptor = Thread.ofPlatform().daemon().name("rest-recording-listener").start(this::serve);
        }

        static RecordingListener start()
                throws IOException
        {
            return new RecordingListener(new ServerSocket(0, 50, InetAddress.getLoopbackAddress()));
        }

        String uri()
        {
            return "http://127.0.0.1:" + socket.getLocalPort();
        }

        int connections()
        {
            return connections.get();
        }

        List<RecordedRequest> requests()
        {
            return ImmutableList.copyOf(requests);
        }

        private void serve()
        {
            while (!socket.isClosed()) {
                try (Socket client = socket.accept()) {
                    connections.incrementAndGet();
                    BufferedReader reader = new BufferedReader(new InputStreamReader(client.getInputStream(), US_ASCII));
                    String line = reader.readLine();
                    if (line == null) {
                        continue;
                    }
                    Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
                    for (String header = reader.readLine(); header != null && !header.isEmpty(); header = reader.readLine()) {
                        int colon = header.indexOf(':');
                        headers.put(header.substring(0, colon).trim(), header.substring(colon + 1).trim());
                    }
                    requests.add(new RecordedRequest(line, headers));
                    byte[] body = "{\"message\": \"unavailable\"}".getBytes(UTF_8);
                    OutputStream output = client.getOutputStream();
                    output.write(("HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nContent-Length: %s\r\nConnection: close\r\n\r\n"
                            .formatted(body.length)).getBytes(US_ASCII));
                    output.write(body);
                    output.flush();
                }
                catch (IOException _) {
                    // the listener was closed, or a client went away mid-request
                }
            }
        }

        @Override
        public void close()
                throws Exception
        {
            socket.close();
            acceptor.join();
        }
    }
}
