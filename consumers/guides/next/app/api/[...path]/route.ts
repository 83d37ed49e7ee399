// app/api/[...path]/route.ts: every path the chat uses, answered by tutor-server.ts.
import { tutorApi } from "@/tutor-server";

export { tutorApi as GET, tutorApi as POST, tutorApi as PATCH, tutorApi as DELETE };
