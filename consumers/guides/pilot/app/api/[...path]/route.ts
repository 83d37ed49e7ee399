// app/api/[...path]/route.ts: every path the chat uses, for the student who signed in.
import { signedInStudent } from "@/auth";
import { createTutorApi } from "@/tutor-server";

const tutorApi = createTutorApi(signedInStudent);

export { tutorApi as GET, tutorApi as POST, tutorApi as PATCH, tutorApi as DELETE };
