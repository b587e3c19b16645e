package io.orderflow.support;

import java.nio.charset.StandardCharsets;

import org.apache.http.HttpVersion;
import org.apache.http.client.HttpClient;
import org.apache.http.impl.client.DefaultHttpClient;
import org.apache.http.params.HttpConnectionParams;
import org.apache.http.params.HttpParams;
import org.apache.http.params.HttpProtocolParams;
import org.apache.http.params.SyncBasicHttpParams;
import org.apache.http.util.VersionInfo;

import io.restassured.RestAssured;
import io.restassured.config.HttpClientConfig;
import io.restassured.config.RestAssuredConfig;

/**
 * RestAssured builds a new Apache HTTP client for every request, and the client's default settings
 * read the library's version file from the class path to name its User-Agent: through Quarkus's class
 * loader, that lookup was the largest cost of a test's request. Clients built here get the same
 * settings with the User-Agent read once.
 */
@SuppressWarnings("deprecation") // RestAssured's own default client is this DefaultHttpClient
final class PreparedHttpClients implements HttpClientConfig.HttpClientFactory {

    private static final String USER_AGENT = VersionInfo.getUserAgent("Apache-HttpClient", "org.apache.http.client", DefaultHttpClient.class);
    private static final PreparedHttpClients FACTORY = new PreparedHttpClients();

    private PreparedHttpClients() {
    }

    /**
     * RestAssured's configuration as it stands (Quarkus sets its timeouts for each test class), with
     * clients from here.
     */
    static RestAssuredConfig config() {
        RestAssuredConfig config = RestAssured.config();
        return config.httpClient(config.getHttpClientConfig().httpClientFactory(FACTORY));
    }

    /** The settings {@code DefaultHttpClient.setDefaultHttpParams} gives, with the User-Agent found once. */
    @Override
    public HttpClient createHttpClient() {
        HttpParams params = new SyncBasicHttpParams();
        HttpProtocolParams.setVersion(params, HttpVersion.HTTP_1_1);
        HttpProtocolParams.setContentCharset(params, StandardCharsets.ISO_8859_1.name());
        HttpConnectionParams.setTcpNoDelay(params, true);
        HttpConnectionParams.setSocketBufferSize(params, 8192);
        HttpProtocolParams.setUserAgent(params, USER_AGENT);
        return new DefaultHttpClient(null, params);
    }
}
