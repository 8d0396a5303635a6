// Consultations with an expert agent: sessions, their messages, and starting a turn.
import "server-only";

export type { ReviewState, SourceItem } from "./contract";
export { MAX_TITLE_CHARS, SESSION_PAGE_MAX, SESSION_SEARCH_MAX_CHARS, titleFromMessage } from "./limits";
export { answerReviewContext, answerReviewStream, answerReviews, myAnswerReviews } from "./reviews";
export { deleteChatSession, getChatSession, listChatSessions, renameChatSession, startChatTurn } from "./sessions";
export { questionsFromOutlines, suggestedQuestions, suggestionsFor } from "./suggestions";
export {
  type ChatAgentProfile,
  type ChatSessionContext,
  loadChatAgent,
  loadChatSession,
  recordAnswerReview,
  rememberSessionSource,
  saveAssistantMessage,
  savedConversation,
  saveStoppedAnswerIn,
  touchSession,
} from "./turn-context";
