package io.orderflow.support;

import java.time.Duration;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Awaitility looks at a condition first only after one poll interval (100 ms) unless told otherwise;
 * most conditions the tests wait for already hold, so every test class looks at once. Registered
 * for every test class through JUnit's extension autodetection (src/test/resources).
 */
public class PromptAwaits implements BeforeAllCallback {

    @Override
    public void beforeAll(ExtensionContext context) throws ReflectiveOperationException {
        // A Quarkus test sees the Awaitility its app's class loader loaded, not this class's: set the default on that one.
        Class<?> awaitility = Class.forName(Awaitility.class.getName(), true, context.getRequiredTestClass().getClassLoader());
        awaitility.getMethod("setDefaultPollDelay", Duration.class).invoke(null, Duration.ZERO);
    }
}
