// Node-RED 4.1.15 settings for captures/node-red (start.sh copies this file into HOME_DIR/userdir).
// No adminAuth: the admin API answers anyone on loopback. A fixed credentialSecret, so flows_cred.json
// is encrypted the same way on every start. No editor tours, telemetry, update notifications, palette
// installs or external modules: nothing reaches outside this machine.
module.exports = {
    flowFile: "flows.json",
    credentialSecret: "capenv-node-red-fixed-secret",
    flowFilePretty: true,
    uiHost: "127.0.0.1",
    diagnostics: { enabled: true, ui: false },
    runtimeState: { enabled: false, ui: false },
    telemetry: { enabled: false, updateNotification: false },
    logging: { console: { level: "warn", metrics: false, audit: false } },
    exportGlobalContextKeys: false,
    externalModules: {
        autoInstall: false,
        palette: { allowInstall: false, allowUpdate: false, allowUpload: false },
        modules: { allowInstall: false }
    },
    editorTheme: { tours: false, projects: { enabled: false } },
    functionExternalModules: false,
    functionTimeout: 0,
    functionGlobalContext: {},
    debugMaxLength: 1000,
    mqttReconnectTime: 15000,
    serialReconnectTime: 15000
};
