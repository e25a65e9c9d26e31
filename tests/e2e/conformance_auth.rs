//! The conformance suite's authorization scenarios, run through the headless CLI
//! (`tests/servers/conformance_client.sh`: one `call test-tool` at the revision the suite
//! names, `$BROWSER` pointed at `follow_url.sh`, which follows the authorization URL to the
//! CLI's callback as a person approving would). Each scenario must pass with every check a
//! success, and the checks that prove the behaviour must be among them (a client that never
//! got as far as the step would leave them out, or skipped).

use anyhow::{Result, ensure};
use tests::root;

use crate::conformance::{failures, scenario_at};

/// Each scenario and the checks it must judge a success.
const SCENARIOS: &[(&str, &[&str])] = &[
    (
        "auth/metadata-default",
        &[
            "prm-pathbased-requested",
            "authorization-request",
            "pkce-verifier-matches-challenge",
            "resource-parameter-matches-prm",
            "valid-bearer-token",
        ],
    ),
    (
        "auth/metadata-var1",
        &[
            "prm-pathbased-requested",
            "authorization-server-metadata",
            "resource-parameter-matches-prm",
            "valid-bearer-token",
        ],
    ),
    ("auth/metadata-var2", &["authorization-server-metadata", "resource-parameter-matches-prm", "valid-bearer-token"]),
    ("auth/metadata-var3", &["authorization-server-metadata", "resource-parameter-matches-prm", "valid-bearer-token"]),
    ("auth/basic-cimd", &["cimd-client-id-used", "pkce-verifier-matches-challenge"]),
    ("auth/scope-from-www-authenticate", &["scope-from-www-authenticate"]),
    ("auth/scope-from-scopes-supported", &["scope-from-scopes-supported"]),
    ("auth/scope-omitted-when-undefined", &["scope-omitted-when-undefined"]),
    ("auth/scope-step-up", &["scope-step-up-initial", "scope-step-up-escalation"]),
    ("auth/scope-retry-limit", &["scope-retry-limit"]),
    ("auth/token-endpoint-auth-basic", &["token-endpoint-auth-method", "resource-parameter-matches-prm"]),
    ("auth/token-endpoint-auth-post", &["token-endpoint-auth-method", "resource-parameter-matches-prm"]),
    ("auth/token-endpoint-auth-none", &["token-endpoint-auth-method", "resource-parameter-matches-prm"]),
    ("auth/pre-registration", &["pre-registration-auth"]),
    ("auth/resource-mismatch", &["resource-mismatch-rejected"]),
    ("auth/offline-access-scope", &["sep-2207-client-metadata-grant-types", "sep-2207-offline-access-requested"]),
    ("auth/offline-access-not-supported", &["sep-2207-offline-access-not-requested"]),
    ("auth/authorization-server-migration", &["sep-2352-reregister-on-as-change", "sep-2352-no-reuse-on-as-change"]),
    ("auth/iss-supported", &["sep-2468-client-compare-iss-supported"]),
    ("auth/iss-not-advertised", &["sep-2468-client-proceed-no-iss"]),
    ("auth/iss-supported-missing", &["sep-2468-client-reject-missing-iss"]),
    ("auth/iss-wrong-issuer", &["sep-2468-client-compare-iss-supported"]),
    ("auth/iss-unexpected", &["sep-2468-client-compare-iss-unadvertised"]),
    ("auth/iss-normalized", &["sep-2468-client-no-normalization"]),
    ("auth/metadata-issuer-mismatch", &["sep-2468-client-validate-metadata-issuer"]),
];

/// The scenarios the suite runs at 2025-11-25 by default, which 2026-07-28 requires too
/// (with `application_type` on every registration, and the scope union on a step-up).
const ALSO_AT_2026: &[&str] = &[
    "auth/metadata-default",
    "auth/metadata-var2",
    "auth/basic-cimd",
    "auth/scope-step-up",
    "auth/scope-retry-limit",
    "auth/token-endpoint-auth-basic",
    "auth/pre-registration",
];

fn run(name: &str, judged: &[&str], revision: Option<&str>) -> Result<()> {
    let command = root().join("tests/servers/conformance_client.sh").display().to_string();
    let checks = scenario_at(name, &command, revision, |_| false)?;
    ensure!(failures(&checks).is_empty(), "{name}: {:#?}", failures(&checks));
    for id in judged {
        ensure!(
            checks.iter().any(|c| c["id"] == *id && c["status"] == "SUCCESS"),
            "{name}: {id} was judged a success: {checks:#?}"
        );
    }
    Ok(())
}

fn family(prefix: &str) -> Result<()> {
    let mut ran = 0;
    for (name, judged) in SCENARIOS.iter().filter(|(n, _)| n.starts_with(prefix)) {
        run(name, judged, None)?;
        ran += 1;
    }
    ensure!(ran > 0, "no scenario starts with {prefix}");
    Ok(())
}

#[test]
fn conformance_auth_metadata_discovery() -> Result<()> {
    family("auth/metadata-")
}

#[test]
fn conformance_auth_client_identity() -> Result<()> {
    family("auth/basic-cimd")?;
    family("auth/token-endpoint-auth-")?;
    family("auth/pre-registration")?;
    family("auth/authorization-server-migration")
}

#[test]
fn conformance_auth_scopes() -> Result<()> {
    family("auth/scope-")?;
    family("auth/offline-access-")
}

#[test]
fn conformance_auth_refusals() -> Result<()> {
    family("auth/resource-mismatch")?;
    family("auth/iss-")
}

#[test]
fn conformance_auth_at_2026_07_28() -> Result<()> {
    for name in ALSO_AT_2026 {
        let judged = SCENARIOS.iter().find(|(n, _)| n == name).map(|(_, j)| *j).unwrap_or_default();
        let mut judged: Vec<&str> = judged.to_vec();
        if *name == "auth/scope-step-up" {
            judged.push("sep-2350-scope-union-on-reauth");
        }
        if !matches!(*name, "auth/basic-cimd" | "auth/pre-registration") {
            judged.push("sep-837-application-type-present");
        }
        run(name, &judged, Some("2026-07-28"))?;
    }
    Ok(())
}

/// Every scenario the issue names is in the table (a typo would leave one out unseen).
#[test]
fn every_auth_scenario_of_the_suite_is_run() {
    let names: Vec<&str> = SCENARIOS.iter().map(|(n, _)| *n).collect();
    assert_eq!(names.len(), 25);
    for also in ALSO_AT_2026 {
        assert!(names.contains(also), "{also}");
    }
}
