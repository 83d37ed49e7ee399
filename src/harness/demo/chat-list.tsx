import { useEffect, useState } from "react";
import { api } from "./demo-chats.js";

interface ListedChat {
  id: string;
  title: string | null;
}

/** This browser's earlier chats, from the server's list (`GET /api/chats`); read again whenever `refresh` changes. */
export function ChatList({
  current,
  opening,
  refresh,
  onOpen,
}: {
  current: string | undefined;
  /** The chat on its way after a click, marked busy until it shows. */
  opening: string | null;
  refresh: unknown;
  onOpen: (id: string) => void;
}) {
  const [chats, setChats] = useState<ListedChat[]>([]);
  useEffect(() => {
    let live = true;
    void api<{ chats: ListedChat[] }>("/api/chats").then(({ status, body }) => {
      if (live && status === 200) setChats(body.chats);
    });
    return () => {
      live = false;
    };
  }, [current, refresh]);
  if (chats.length < 2) return null;
  return (
    <details className="demo-chats">
      <summary>Your chats ({chats.length})</summary>
      <nav aria-label="Chats">
        <ul>
          {chats.map((chat) => (
            <li key={chat.id}>
              <button
                type="button"
                aria-current={chat.id === current ? "true" : undefined}
                aria-busy={chat.id === opening || undefined}
                onClick={() => onOpen(chat.id)}
              >
                {chat.title ?? "New chat"}
              </button>
            </li>
          ))}
        </ul>
      </nav>
    </details>
  );
}
