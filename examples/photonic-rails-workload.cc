// Placeholder: the workload program (issue 4) replaces this file.
#include <iostream>

int
main()
{
    std::cerr << "photonic-rails-workload: not implemented yet\n";
    return 1;
}
