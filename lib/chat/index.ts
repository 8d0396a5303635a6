// Consultations with an expert agent: sessions, their messages, and starting a turn.
export {
  MAX_MESSAGE_BYTES,
  MAX_TITLE_CHARS,
  SESSION_PAGE_MAX,
  sessionOfThread,
  threadOfSession,
  titleFromMessage,
} from "./limits";
export {
  CHAT_WORKFLOW,
  type ChatTurn,
  type ChatTurnInput,
  deleteChatSession,
  getChatSession,
  listChatSessions,
  renameChatSession,
  startChatTurn,
} from "./sessions";
export {
  type ChatAgentProfile,
  type ChatSessionContext,
  loadChatAgent,
  loadChatSession,
  saveAssistantMessage,
  savedConversation,
  touchSession,
} from "./turn-context";
export type {
  ChatActor,
  ChatAgentRef,
  ChatAnswerMetadata,
  ChatMessageMetadata,
  ChatMessageView,
  ChatSessionDetail,
  ChatSessionListItem,
  ChatSessionPage,
  ReviewState,
  SourceItem,
} from "./types";
