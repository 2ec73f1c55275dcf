import { createRouter, publicProcedure } from "../init";

/** The signed-in dashboard user (password changes go through a server action: they re-issue the cookie). */
export const accountRouter = createRouter({
  me: publicProcedure.query(({ ctx }) => ctx.session),
});
