// SKILL.md files built to exhaust the client's frontmatter reader, read with readSkill: each is
// refused within 2 s as invalid-result, nothing is handed over, and the same client then reads a
// plain skill and calls a tool.
import { McpClient } from "mcp-wasm";
import { expectEcho, expectFailure, expectSuccess } from "../expect.mjs";

const skill = (name, description = "d") => ({ uri: `skill://${name}/SKILL.md`, frontmatter: { name, description } });

export async function skillBomb({ check, peer, track }) {
  const client = track(await McpClient.connect(peer.url("skill-bomb"), { timeout: 5_000 }));
  const flow = await expectFailure(check, "readSkill of a frontmatter with 30,000 nested [", client.readSkill(skill("flow")), "invalid-result");
  check(/nests deeper than 32/.test(flow.message), "… says how deep it may nest", flow.message);
  const nested = await expectFailure(check, "readSkill of 300 mappings each indented once more", client.readSkill(skill("nested")), "invalid-result");
  check(/nests deeper than 32/.test(nested.message), "… says how deep it may nest", nested.message);
  const long = await expectFailure(check, "readSkill of a 128 KiB frontmatter", client.readSkill(skill("long")), "invalid-result");
  check(/more than 65536/.test(long.message), "… says how long it may be", long.message);
  const plain = await expectSuccess(check, "the client afterwards reads a plain skill", client.readSkill(skill("plain", "A plain skill")));
  check(plain.frontmatter.description === "A plain skill" && plain.body === "The body.\n", "… with its frontmatter and body", JSON.stringify(plain));
  await expectEcho(check, client);
}
