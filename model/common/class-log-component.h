/*
 * One log component per class (doc/architecture.md "Conventions the code follows"): a class whose code spans
 * several files logs under the class's name from every one of them, so that NS_LOG="DdpEndpoint=level_all"
 * shows the whole class, its receive path included. ns-3 refuses a second component of the same name, so the
 * file that holds the class's TypeId defines the component with IWARP_CLASS_LOG_COMPONENT_DEFINE and each other
 * file of the class reaches that one with IWARP_CLASS_LOG_COMPONENT_USE. Both go inside namespace ns3, where
 * NS_LOG_COMPONENT_DEFINE goes.
 */
/**
 * \file
 * \ingroup iwarp-common
 */
#ifndef IWARP_CLASS_LOG_COMPONENT_H
#define IWARP_CLASS_LOG_COMPONENT_H

#include "ns3/log.h"

/** Defines the component NAME (the class's name) and the accessor the class's other files reach it by. */
#define IWARP_CLASS_LOG_COMPONENT_DEFINE(NAME)                                                         \
    NS_LOG_COMPONENT_DEFINE(#NAME);                                                                    \
    LogComponent& NAME##LogComponent()                                                                 \
    {                                                                                                  \
        return g_log;                                                                                  \
    }

/**
 * Makes this file's NS_LOG_* macros log under NAME's component. Binding the reference needs no constructed
 * component (its storage is static), so the order in which files are initialised does not matter.
 */
#define IWARP_CLASS_LOG_COMPONENT_USE(NAME)                                                            \
    LogComponent& NAME##LogComponent();                                                                \
    static LogComponent& g_log = NAME##LogComponent()

#endif // IWARP_CLASS_LOG_COMPONENT_H
