// The JSON Schema validator module, with the skill checks, for the browser
// entry: fetched and instantiated the first time a tool's structuredContent,
// an elicitation answer or a skill's file needs checking. Node and workerd
// load it in their own entries.
import init, { validateJson, checkSkill, checkSkillFile } from "./mcp_wasm_validator.js";

export async function load() {
  await init({ module_or_path: new URL("./mcp_wasm_validator_bg.wasm", import.meta.url) });
  return { validateJson, checkSkill, checkSkillFile };
}
