// The stallguard library. createDetector() is the way in; the rest is the machinery under it, for tools
// that replay recorded sessions or build their own hook.
export type * from './types.ts';
export { ALLOW } from './types.ts';
export { createDetector, type Detector, type DetectorConfig, type DetectorOptions } from './library/detector.ts';
export { reduce, initialState } from './engine/engine.ts';
export type { State } from './engine/state.ts';
export { observation, toStep } from './engine/step.ts';
export { DEFAULT_CONFIG } from './config/defaults.ts';
export { replayItems, type Intervention, type ReplaySummary } from './replay/replay.ts';
// trace readers: recorded trajectories -> events
export { readTrajectory, sniffFormat, FORMATS } from './readers/read-file.ts';
export { traceEvents } from './readers/trace.ts';
export { claudeTranscriptEvents } from './readers/claude-transcript.ts';
export { claudeStreamJsonEvents } from './readers/claude-stream-json.ts';
export { codexRolloutEvents } from './readers/codex-rollout.ts';
export { geminiChatEvents } from './readers/gemini-chat.ts';
export { copilotEventsEvents } from './readers/copilot-events.ts';
export { qwenChatEvents } from './readers/qwen-chat.ts';
export { detectFormat } from './readers/detect-format.ts';
export type { ReplayItem, ReadStats, TraceFormat } from './readers/types.ts';
// agent payloads -> events, decisions -> the agent's answer
export { adapterFor, detectAgent } from './adapters/detect.ts';
export type { Adapter, Parsed } from './adapters/types.ts';
