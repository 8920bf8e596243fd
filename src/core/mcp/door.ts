import type { McpHttpState } from '../../shared/api';
import type { McpDoor, McpLauncher } from '../context';

/** The core's record of how other AI tools reach this process; the owning door fills it in. */
export class McpDoorState implements McpDoor {
  launcher: McpLauncher | null = null;
  http: McpHttpState | null = null;
  private switcher: ((enabled: boolean) => Promise<McpHttpState>) | null = null;
  private rotator: (() => Promise<McpHttpState>) | null = null;

  onRotate(rotator: () => Promise<McpHttpState>): void {
    this.rotator = rotator;
  }

  async rotateToken(): Promise<McpHttpState | null> {
    if (!this.rotator) return null;
    this.http = await this.rotator();
    return this.http;
  }

  onSwitch(switcher: (enabled: boolean) => Promise<McpHttpState>): void {
    this.switcher = switcher;
  }

  async switchListener(enabled: boolean): Promise<McpHttpState | null> {
    if (!this.switcher) return null;
    this.http = await this.switcher(enabled);
    return this.http;
  }
}
