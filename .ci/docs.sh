#!/usr/bin/env bash
# Docs and security checks, one CI step after the build (.ci/run): README sections, the TypeDoc API
# reference, no key or secret in any dist/, and `pnpm audit --prod`. Every check runs even after one fails;
# the status is that of the worst. Needs `pnpm build` first (the secrets scan reads dist/).
set -uo pipefail
cd "$(dirname "$0")/.."
status=0
part() { printf -- '--- %s\n' "$1"; }

part "README sections (.ci/readme-check.mjs)"
node .ci/readme-check.mjs || status=1

part "API reference (TypeDoc into docs/api/)"
# typedoc.json treats warnings as errors; its `notExported` validation fails on a type the public API uses
# but no entry exports. The ones found when this check was added are listed per package in
# packages/*/typedoc.json (intentionallyNotExported), so only new ones fail. Link validation is off: some
# TSDoc links point at unexported constants (DEFAULT_SAFETY_MARGIN_MS), to be fixed in the source.
rm -rf docs/api
if pnpm -s docs; then
  echo "docs/api: $(find docs/api -name '*.html' | wc -l) pages, $(du -sh docs/api | cut -f1)"
else
  status=1
fi

part "no key or secret in dist/ (.ci/secrets-check.mjs)"
node .ci/secrets-check.mjs || status=1

part "pnpm audit --prod (fails on high or critical advisories)"
# pnpm exits 1 both for advisories and for an endpoint it cannot reach, so read its JSON: advisories at
# high or critical fail the step; an unreachable audit endpoint is said loudly, not passed off as clean.
# X_AUDIT_REQUIRED=1 makes an unreachable endpoint fail the step too.
audit_json=$(pnpm audit --prod --json 2>&1)
node -e '
  const text = process.argv[1];
  let r;
  try { r = JSON.parse(text); } catch { console.log(`pnpm audit printed no JSON:\n${text.slice(0, 2000)}`); process.exit(1); }
  if (r.error) {
    console.log(`AUDIT NOT RUN: ${r.error.code}: ${r.error.message}`);
    console.log("The advisory endpoint did not answer, so no result exists for this run (not a pass).");
    process.exit(process.env.X_AUDIT_REQUIRED === "1" ? 1 : 0);
  }
  const v = r.metadata?.vulnerabilities ?? {};
  console.log(`advisories in production dependencies: ${JSON.stringify(v)}`);
  for (const a of Object.values(r.advisories ?? {}))
    if (["high", "critical"].includes(a.severity)) console.log(`  ${a.severity}: ${a.module_name} ${a.vulnerable_versions}: ${a.title} (${a.url})`);
  process.exit((v.high ?? 0) + (v.critical ?? 0) > 0 ? 1 : 0);
' "$audit_json" || status=1

exit "$status"
