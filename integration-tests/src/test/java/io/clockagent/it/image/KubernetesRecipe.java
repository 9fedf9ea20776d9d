package io.clockagent.it.image;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The recipe's Deployment ({@code deploy/kubernetes/deployment.yaml}) read into the Kubernetes API's own types (the
 * fabric8 model), failing on any field those types do not know, and what the recipe tells a pod: the init
 * container's arguments and the folder it mounts, and the service container's environment and the folder it mounts
 * the same volume at.
 */
record KubernetesRecipe(Container installer, Container service, String volume) {

    static final String FILE = "kubernetes/deployment.yaml";

    static KubernetesRecipe read(Path deploy) throws IOException {
        ObjectMapper yaml = new ObjectMapper(new YAMLFactory())
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
        Deployment deployment = yaml.readValue(deploy.resolve(FILE).toFile(), Deployment.class);
        List<String> unknown = new ArrayList<>();
        unknownFields(deployment, "deployment", unknown, new IdentityHashMap<>());
        assertEquals(List.of(), unknown, "fields the Kubernetes API does not know, in " + FILE);
        PodSpec pod = deployment.getSpec().getTemplate().getSpec();
        assertEquals(1, pod.getInitContainers().size(), "one init container, the installer");
        assertEquals(1, pod.getContainers().size(), "one container, the service");
        assertEquals(1, pod.getVolumes().size(), "one volume, shared");
        assertTrue(pod.getVolumes().get(0).getEmptyDir() != null, "the shared volume is an emptyDir");
        return new KubernetesRecipe(pod.getInitContainers().get(0), pod.getContainers().get(0),
                pod.getVolumes().get(0).getName());
    }

    /** Where the installer writes: its one argument, which must be where it mounts the shared volume. */
    String installerFolder() {
        assertEquals(1, installer.getArgs().size(), "the installer takes one argument");
        assertEquals(installer.getArgs().get(0), mountPath(installer), "the installer writes into the volume");
        return installer.getArgs().get(0);
    }

    /** Where the service container sees the shared volume. */
    String serviceFolder() {
        return mountPath(service);
    }

    /** The service container's environment, by name. */
    Map<String, String> serviceEnvironment() {
        Map<String, String> environment = new LinkedHashMap<>();
        for (EnvVar variable : service.getEnv()) {
            environment.put(variable.getName(), variable.getValue());
        }
        return environment;
    }

    private String mountPath(Container container) {
        List<VolumeMount> mounts = container.getVolumeMounts().stream().filter(m -> m.getName().equals(volume))
                .toList();
        assertEquals(1, mounts.size(), container.getName() + " mounts the shared volume once");
        return mounts.get(0).getMountPath();
    }

    /**
     * Every non-empty {@code additionalProperties} in the model's graph: the fabric8 types keep fields they do not
     * know there rather than fail, which is how a misspelt field would pass unseen.
     */
    private static void unknownFields(Object node, String where, List<String> unknown, Map<Object, Boolean> seen) {
        if (node == null || seen.put(node, true) != null || node instanceof String || node instanceof Number
                || node instanceof Boolean) {
            return;
        }
        if (node instanceof Collection<?> items) {
            int i = 0;
            for (Object item : items) {
                unknownFields(item, where + "[" + i++ + "]", unknown, seen);
            }
            return;
        }
        if (node instanceof Map<?, ?> map) {
            map.forEach((key, value) -> unknownFields(value, where + "." + key, unknown, seen));
            return;
        }
        if (!node.getClass().getName().startsWith("io.fabric8.")) {
            return;
        }
        for (Method getter : node.getClass().getMethods()) {
            if (getter.getParameterCount() != 0 || !getter.getName().startsWith("get")
                    || getter.getDeclaringClass() == Object.class) {
                continue;
            }
            Object value;
            try {
                value = getter.invoke(node);
            } catch (ReflectiveOperationException unreadable) {
                throw new AssertionError(where + "." + getter.getName(), unreadable);
            }
            if (getter.getName().equals("getAdditionalProperties")) {
                if (value instanceof Map<?, ?> extra && !extra.isEmpty()) {
                    unknown.add(where + ": " + extra.keySet());
                }
            } else {
                unknownFields(value, where + "." + getter.getName().substring(3), unknown, seen);
            }
        }
    }
}
