/** The merchant statistics (docs/api-contract.md, "Shapes": `GET merchant/{id}/stats`). */
export interface Stats {
  from: string;
  to: string;
  payments: { total: number; pending: number; confirmed: number; failed: number };
  volume: { currency: string; amount: string; count: number }[];
  daily: { date: string; count: number; volume: { currency: string; amount: string }[] }[];
  webhooks: { delivered: number; pending: number; failed: number; successRate: number | null };
}
