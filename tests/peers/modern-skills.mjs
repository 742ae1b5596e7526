// The skills (SEP-2640, extension io.modelcontextprotocol/skills) that tests/peers/modern-server.mjs
// serves through the SDK's SkillsExtension: skills/list, skills/get, and every file by
// resources/read under skill://. The SDK's own catalog refuses to serve a file that differs from
// its listing, so the files come from a SkillSource of ours, which can lie on request: a request
// whose `X-Tamper-Skill-File` header names a file's URI gets that file with one letter's case
// flipped (same size, another digest), so a client that checks what it loads must refuse it.
import { SkillsExtension, skillEntry } from "@modelcontextprotocol/server/ext/skills";

export const TAMPER_HEADER = "x-tamper-skill-file";

// Multi-byte UTF-8 (é, ß, 日本, an emoji outside the BMP) makes size in bytes differ from length in
// UTF-16 units, and nested frontmatter and a quoted colon try the client's YAML reader.
const FILES = {
  "release-notes": {
    "SKILL.md": `---
name: release-notes
description: "Write release notes: a summary, then the changes by kind"
license: Apache-2.0
metadata:
  author: mcp-wasm tests
  version: "1.2"
---
# Release notes

1. Read \`templates/NOTES.md\`.
2. Run \`scripts/changes.sh\` and sort what it prints into the template's sections.
`,
    "templates/NOTES.md": "## Added\n\n## Changed\n\n## Fixed\n",
    "scripts/changes.sh": "#!/bin/sh\ngit log --oneline \"$1..HEAD\"\n",
  },
  "glossary-fr": {
    "SKILL.md": `---
name: glossary-fr
description: Termes techniques en français — « déploiement », « clé », 日本語 aussi
---
# Glossaire

Use \`reference/TERMS.md\` for the terms; keep the accents (é, è, ß) and the emoji 🚀 as they are.
`,
    "reference/TERMS.md": "| en | fr |\n|---|---|\n| deployment | déploiement |\n| key | clé |\n| launch 🚀 | lancement |\n",
  },
};

/** The same text with one ASCII letter's case flipped: as many bytes, another SHA-256. */
function tampered(text) {
  const at = text.search(/[A-Za-z][^A-Za-z]*$/);
  const letter = text[at];
  return text.slice(0, at) + (letter === letter.toLowerCase() ? letter.toUpperCase() : letter.toLowerCase()) + text.slice(at + 1);
}

const entries = await Promise.all(Object.entries(FILES).map(([name, files]) => skillEntry(name, files)));
const contents = new Map(Object.entries(FILES).flatMap(([name, files]) =>
  Object.entries(files).map(([path, text]) => [`skill://${name}/${path}`, text])));

/** One extension serves every per-request McpServer that createMcpHandler builds. */
export const skills = new SkillsExtension({
  source: {
    async list() { return { skills: entries }; },
    async get(uri) { return entries.find((entry) => entry.uri === uri); },
    async read(uri, ctx) {
      const text = contents.get(uri);
      if (text === undefined) return undefined;
      const lie = ctx.http?.req?.headers.get(TAMPER_HEADER) === uri;
      return { text: lie ? tampered(text) : text, mimeType: uri.endsWith(".md") ? "text/markdown" : "text/plain" };
    },
  },
});
