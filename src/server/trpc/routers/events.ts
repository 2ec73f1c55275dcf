import { listEventsForSubject, listSubjectEventsInput } from "@/server/services/events/list-for-subject";
import { createRouter, merchantProcedure } from "../init";

/** Events about one of the signed-in merchant's resources, with their webhook deliveries. */
export const eventsRouter = createRouter({
  forSubject: merchantProcedure
    .input(listSubjectEventsInput)
    .query(({ ctx, input }) => listEventsForSubject({ ctx: ctx.service, input })),
});
