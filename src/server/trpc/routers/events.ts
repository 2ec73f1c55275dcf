import { listEventsForSubject, listSubjectEventsInput, subjectEventsSchema } from "@/server/services/events/list-for-subject";
import { createRouter, merchantProcedure } from "../init";

/** Events about one of the signed-in merchant's resources, with their webhook deliveries. */
export const eventsRouter = createRouter({
  forSubject: merchantProcedure("events.read")
    .input(listSubjectEventsInput)
    .output(subjectEventsSchema)
    .query(({ ctx, input }) => listEventsForSubject({ ctx: ctx.service, input })),
});
