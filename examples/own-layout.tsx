import { AnsiText, ExecuteCode, type ExecuteCodeCallState } from "execute-code-ui";
import { useState } from "react";

// The call's state (`fromAISDKToolPart(part)`, say) and your answers to an approval request.
type Props = ExecuteCodeCallState & { approve: () => void; deny: (reason?: string) => void };

export function SandboxCard({ approve, deny, ...toolCallProps }: Props) {
  const [showCode, setShowCode] = useState(false);
  return (
    <ExecuteCode.Root {...toolCallProps} defaultOpen={false}>
      <ExecuteCode.Header>
        <ExecuteCode.Title>Sandbox</ExecuteCode.Title>
        <ExecuteCode.Status>
          <ExecuteCode.Exit />
        </ExecuteCode.Status>
        <ExecuteCode.Timing />
        <ExecuteCode.Trigger />
      </ExecuteCode.Header>
      <ExecuteCode.Content>
        <ExecuteCode.Explanation />
        <ExecuteCode.Output renderText={(text) => <AnsiText text={text} />} stdoutProps={{ defaultOpen: true }} />
        <ExecuteCode.Source open={showCode} onOpenChange={setShowCode} />
        <ExecuteCode.Message />
      </ExecuteCode.Content>
      {/* Outside Content: Run and Deny show while the card is folded. */}
      <ExecuteCode.Approval onApprove={approve} onDeny={deny} />
    </ExecuteCode.Root>
  );
}
