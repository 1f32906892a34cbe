/**
 * One kind of outbound work a feature queues (webhook deliveries, e-mail, WhatsApp): a statement
 * answering, as column `due`, when the oldest item still waiting became due ($1 is now; null when
 * nothing due waits). /metrics reads the backlog's age from it (a queue can be short and stuck).
 */
export interface BacklogProbe {
  kind: string;
  oldestDue: string;
}
